import Metrics
import StoreSyncAPI

/// Counts verdicts by kind (`storesync_verdicts_total{verdict, dry_run}`).
enum SyncMetrics {
    static func record(_ verdicts: [Verdict], dryRun: Bool) {
        var counts: [VerdictKind: Int] = [:]
        for verdict in verdicts { counts[verdict.verdict, default: 0] += 1 }
        for (kind, count) in counts {
            Counter(label: "storesync_verdicts_total", dimensions: [("verdict", kind.rawValue), ("dry_run", "\(dryRun)")])
                .increment(by: count)
        }
    }
}
