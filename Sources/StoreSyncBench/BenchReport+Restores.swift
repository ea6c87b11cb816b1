import Foundation

extension BenchReport {
    func restoreTable() -> [String] {
        var rows = [[
            "Restore (server time)", "runs", "new p50 ms", "p99 ms", "µs/entry", "repeat p50 ms", "µs/entry",
            "other instance p50 ms", "µs/entry",
        ]]
        for timing in results.restores {
            let fresh = Percentile.of(timing.fresh, 50)
            let repeated = Percentile.of(timing.repeated, 50)
            let elsewhere = Percentile.of(timing.elsewhere, 50)
            rows.append([
                "\(grouped(timing.entries)) entries", "\(timing.fresh.count)", format(fresh, 2),
                format(Percentile.of(timing.fresh, 99), 2), perEntry(fresh, timing.entries), format(repeated, 2),
                perEntry(repeated, timing.entries), format(elsewhere, 2), perEntry(elsewhere, timing.entries),
            ])
        }
        return aligned(rows) + [
            "new: every JWS verified and stored; repeat: the same restore again; other instance: the same restore on a",
            "second server on the database, which has not seen these JWS itself (a load balancer's other pick, a restart)",
        ]
    }

    /// Each size's new restores against the floor measured beside them.
    func floorTable() -> [String] {
        var rows = [[
            "Restore of new entries vs floor", "new p50 ms", "verify p50 ms", "store p50 ms", "both p50 ms", "floor ms",
            "µs/entry", "÷ floor", "÷ longer",
        ]]
        for timing in results.restores {
            let fresh = Percentile.of(timing.fresh, 50)
            rows.append([
                "\(grouped(timing.entries)) entries", format(fresh, 2), format(Percentile.of(timing.verifying, 50), 2),
                format(Percentile.of(timing.storing, 50), 2), format(Percentile.of(timing.sideBySide, 50), 2),
                format(timing.floor, 2), perEntry(timing.floor, timing.entries), ratio(fresh, timing.floor),
                ratio(fresh, timing.longerHalf),
            ])
        }
        return aligned(rows) + [
            "verify: the same JWS verified in the bench process on \(cores) cores with the server's verifier, nothing else running;",
            "store: the same rows (JWS included) written by the server's own statements alone, BEGIN to COMMIT (FirstClaimWrites);",
            "both: the two at once, side by side (other copies of the rows); floor: the largest of the three, which is both",
            "unless cores are to spare (then the longer half); ÷ longer: against the longer half alone, as if both overlapped freely",
        ]
    }

    /// The restore row of the target table, against the floor, and the per-entry cost's growth.
    func restoreTargets() -> [[String]] {
        var rows: [[String]] = []
        if let thousand = results.restores.first(where: { $0.entries == 1_000 }) {
            let fresh = Percentile.of(thousand.fresh, 50)
            rows.append([
                "Restore 1,000 entries, server p50",
                "\(format(fresh, 1)) ms all new (JWS verified), \(format(Percentile.of(thousand.repeated, 50), 1)) ms all known "
                    + "(\(format(Percentile.of(thousand.elsewhere, 50), 1)) ms on another instance)",
                "—", "",
            ])
            rows.append([
                "Restore 1,000 new entries ÷ floor",
                "\(format(fresh, 1)) ms ÷ \(format(thousand.floor, 1)) ms = \(ratio(fresh, thousand.floor)) × "
                    + "(verify \(format(Percentile.of(thousand.verifying, 50), 1)) ms on \(cores) cores, "
                    + "store \(format(Percentile.of(thousand.storing, 50), 1)) ms, "
                    + "both at once \(format(Percentile.of(thousand.sideBySide, 50), 1)) ms; "
                    + "\(ratio(fresh, thousand.longerHalf)) × the longer alone)",
                "≤ 1.3 ×", verdict(fresh <= 1.3 * thousand.floor),
            ])
        }
        if let linearity = restoreLinearity() {
            rows.append([
                "Restore cost per entry, 1,000 → \(grouped(linearity.largest))",
                "\(format(linearity.restore, 2)) × (µs/entry at \(grouped(linearity.largest)) ÷ at 1,000; floor "
                    + "\(format(linearity.floor, 2)) ×)",
                "linear (≤ 1.5 ×)", verdict(linearity.restore <= 1.5),
            ])
        }
        return rows
    }

    private var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    private func perEntry(_ milliseconds: Double, _ entries: Int) -> String {
        format(milliseconds * 1000 / Double(entries), 1)
    }

    /// Per-entry cost at the largest size over that at 1,000, of the new restores and of their floor.
    private func restoreLinearity() -> (largest: Int, restore: Double, floor: Double)? {
        guard let base = results.restores.first(where: { $0.entries == 1_000 }),
            let largest = results.restores.max(by: { $0.entries < $1.entries }), largest.entries > base.entries
        else { return nil }
        let scale = Double(base.entries) / Double(largest.entries)
        return (
            largest.entries, Percentile.of(largest.fresh, 50) / Percentile.of(base.fresh, 50) * scale,
            largest.floor / base.floor * scale
        )
    }
}
