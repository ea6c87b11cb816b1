import Foundation

/// The printed result: every measurement side by side, then a table of the targets that a
/// reader can paste into PERFORMANCE.md.
struct BenchReport {
    let plan: BenchPlan
    let results: BenchResults

    var text: String {
        var lines: [String] = []
        lines.append("")
        lines.append(
            "StoreSync bench — \(grouped(plan.accounts)) accounts × 3 purchases (seeded in \(format(results.seedSeconds, 1)) s), "
                + "lookups over \(hotSetDescription), "
                + "\(plan.seconds) s per run, medians of \(plan.rounds) rounds")
        lines.append("")
        let sections: [[String]] = [
            plan.phases.isDisjoint(with: [.cached, .uncached]) ? [] : lookupTable(),
            plan.phases.contains(.restores) ? restoreTable() + [""] + floorTable() : [],
            results.standby.map(standbyTable) ?? [],
            plan.phases.contains(.mixed) ? mixedSection() : [],
            plan.phases.contains(.history) ? historyTable() : [],
            storageSection(),
            scaleLines(),
            plan.phases.contains(.client) ? [clientLine] : [],
            memoryTable(),
            cacheLines(),
            [durationLine],
        ]
        for section in sections where !section.isEmpty {
            lines.append(contentsOf: section)
            lines.append("")
        }
        lines.append(contentsOf: targetTable())
        return lines.joined(separator: "\n")
    }

    private var hotSetDescription: String {
        let count = grouped(plan.hotSet.count)
        return plan.hotSet.stride == 1 ? "the first \(count) accounts" : "\(count) accounts (one in \(plan.hotSet.stride))"
    }

    private var clientLine: String {
        "Client: merge 2 × 100,000 records p50 \(format(Percentile.of(results.mergeMilliseconds, 50), 1)) ms, p99 \(format(Percentile.of(results.mergeMilliseconds, 99), 1)) ms; JWS verification (cached chain, one task) \(Int(results.verificationsPerSecond)) /s"
    }

    private func cacheLines() -> [String] {
        guard let ratio = results.cacheHitRatio else { return [] }
        return ["Snapshot cache hit ratio during the cached runs: \(format(ratio * 100, 1)) % (hot set of \(grouped(plan.hotSet.count)) accounts)"]
    }

    private var durationLine: String {
        "Wall time: " + results.durations.map { "\($0.part) \(format($0.seconds, 0)) s" }.joined(separator: ", ")
    }

    private func lookupTable() -> [String] {
        var rows = [["Lookups", "conns", "req/s", "p50 ms", "p99 ms", "errors", "÷ pgbench", "÷ /health/live"]]
        for connections in plan.concurrency {
            let pgbench = results.pgbench[connections]
            let live = results.liveness[connections]
            func row(_ name: String, _ result: LoadResult?) -> [String] {
                guard let result else { return [name, "\(connections)", "—", "—", "—", "—", "—", "—"] }
                return [
                    name, "\(connections)", format(result.requestsPerSecond, 0), format(result.p50Milliseconds, 2),
                    format(result.p99Milliseconds, 2), "\(result.errors)",
                    ratio(result.requestsPerSecond, pgbench?.requestsPerSecond),
                    ratio(result.requestsPerSecond, live?.requestsPerSecond),
                ]
            }
            if plan.phases.contains(.uncached) { rows.append(row("pgbench: lookup statement", pgbench)) }
            if plan.phases.contains(.cached) {
                rows.append(row("GET /health/live", live))
                rows.append(row("GET /v1/entitlements, cached", results.cached.device[connections]))
                rows.append(row("GET admin entitlements, cached", results.cached.admin[connections]))
            }
            if plan.phases.contains(.uncached) {
                rows.append(row("GET /v1/entitlements, uncached", results.uncached.device[connections]))
                rows.append(row("GET admin entitlements, uncached", results.uncached.admin[connections]))
            }
        }
        return aligned(rows)
    }

    func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }

    func ratio(_ value: Double, _ base: Double?) -> String {
        guard let base, base > 0 else { return "—" }
        return format(value / base, 2)
    }

    func megabytes(_ bytes: Int) -> String { bytes > 0 ? "\(format(Double(bytes) / 1_000_000, 1)) MB" : "—" }

    /// A count with thousands separated as the rest of the table writes them: 10,000.
    func grouped(_ count: Int) -> String {
        let digits = Array(String(count.magnitude))
        let groups = stride(from: digits.count, to: 0, by: -3).reversed()
            .map { end in String(digits[max(0, end - 3)..<end]) }
            .joined(separator: ",")
        return (count < 0 ? "-" : "") + groups
    }

    func format(_ value: Double, _ decimals: Int) -> String {
        value.isFinite ? String(format: "%.\(decimals)f", value) : "—"
    }

    /// Rows in columns: the first left-aligned, the others right-aligned.
    func aligned(_ rows: [[String]]) -> [String] {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == 0 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
    }
}
