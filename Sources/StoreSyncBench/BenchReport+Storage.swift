extension BenchReport {
    /// What the seeded data takes per account, and what each restored purchase, JWS included,
    /// takes per transaction, table by table.
    func storageSection() -> [String] {
        var lines: [String] = []
        if let seeded = results.seeded, let accounts = seeded.table("accounts")?.rows, accounts > 0 {
            lines.append("Storage of the seed (no JWS text stored), tables + indexes + TOAST:")
            lines += footprintTable(seeded, per: "account", count: accounts)
        }
        if let growth = restoredGrowth, let added = growth.table("transactions")?.rows, added > 0 {
            if !lines.isEmpty { lines.append("") }
            lines.append("Storage of the restored purchases (their growth over the restores, every JWS stored), tables + indexes + TOAST:")
            lines += footprintTable(growth, per: "transaction", count: added)
            if let transactions = growth.table("transactions") {
                lines.append(
                    "transactions per row: heap \(perRow(transactions.heapBytes, added)) B, TOAST \(perRow(transactions.toastBytes, added)) B, "
                        + "indexes \(perRow(transactions.indexBytes, added)) B")
            }
        }
        return lines
    }

    /// The seed's speed, the database's size, and a linear projection to 10 and 100 million
    /// accounts, for PERFORMANCE.md.
    func scaleLines() -> [String] {
        guard let seeded = results.seeded, let perAccount = seeded.bytesPerAccount, results.seedSeconds > 0 else { return [] }
        let rate = Double(plan.accounts) / results.seedSeconds
        var lines = [
            "Scale: \(grouped(plan.accounts)) accounts seeded in \(format(results.seedSeconds, 1)) s (\(grouped(Int(rate))) accounts/s); "
                + "database \(megabytes(seeded.databaseBytes)) after the seed (\(grouped(Int(perAccount))) B per account in its tables)"
                + (results.afterRestores.map { ", \(megabytes($0.databaseBytes)) after the restores" } ?? ""),
        ]
        let jws = jwsBytesPerTransaction
        for target in [10_000_000, 100_000_000] {
            let asSeeded = perAccount * Double(target)
            var line = "  linear to \(grouped(target)) accounts: \(gigabytes(asSeeded)) as seeded"
            if let jws { line += ", \(gigabytes(asSeeded + 3 * jws * Double(target))) with every purchase's JWS" }
            line += ", seed ≈ \(format(Double(target) / rate / 60, 0)) min"
            lines.append(line)
        }
        if let jws {
            lines.append("  (a stored JWS adds \(grouped(Int(jws))) B per transaction: restored rows of transactions less seeded ones)")
        }
        return lines
    }

    /// The restores' growth of the database, when both ends were read.
    var restoredGrowth: DatabaseFootprint? {
        guard let before = results.beforeRestores, let after = results.afterRestores else { return nil }
        return after.growth(since: before)
    }

    /// Bytes a restored row of `transactions` takes beyond a seeded one: its JWS and digest.
    var jwsBytesPerTransaction: Double? {
        guard let growth = restoredGrowth?.table("transactions"), growth.rows > 0,
            let seeded = results.seeded?.table("transactions"), seeded.rows > 0
        else { return nil }
        return Double(growth.bytes) / Double(growth.rows) - Double(seeded.bytes) / Double(seeded.rows)
    }

    private func footprintTable(_ footprint: DatabaseFootprint, per unit: String, count: Int) -> [String] {
        var rows = [["table", "rows", "MB", "B/row", "B/\(unit)"]]
        for table in footprint.tables where table.rows != 0 || table.bytes != 0 {
            rows.append([
                table.name, grouped(table.rows), format(Double(table.bytes) / 1_000_000, 1), perRow(table.bytes, table.rows),
                perRow(table.bytes, count),
            ])
        }
        rows.append([
            "all tables", "", format(Double(footprint.totalBytes) / 1_000_000, 1), "", perRow(footprint.totalBytes, count),
        ])
        return aligned(rows)
    }

    private func perRow(_ bytes: Int, _ rows: Int) -> String {
        rows > 0 ? grouped(Int((Double(bytes) / Double(rows)).rounded())) : "—"
    }

    private func gigabytes(_ bytes: Double) -> String { "\(grouped(Int((bytes / 1_000_000_000).rounded()))) GB" }
}
