import Foundation

extension BenchReport {
    /// The standby phase: each configuration's device lookups per concurrency, as a share of
    /// the primary's with the same cache setting, and who answered the standby servers.
    func standbyTable(_ standby: StandbyBench.Results) -> [String] {
        var rows = [["Lookups (standby phase)", "conns", "req/s", "p50 ms", "p99 ms", "errors", "÷ primary"]]
        for connections in plan.concurrency {
            for name in StandbyBench.Results.configurations {
                let baseline = standby.lookups[name.replacingOccurrences(of: "standby", with: "primary")]?[connections]
                guard let result = standby.lookups[name]?[connections] else { continue }
                rows.append([
                    "GET /v1/entitlements, \(name)", "\(connections)", format(result.requestsPerSecond, 0),
                    format(result.p50Milliseconds, 2), format(result.p99Milliseconds, 2), "\(result.errors)",
                    baseline.map { format(result.requestsPerSecond / $0.requestsPerSecond, 2) } ?? "—",
                ])
            }
        }
        let answered = ["cache", "standby", "primary"].map { "\($0) \(Int(standby.sources[$0] ?? 0))" }.joined(separator: ", ")
        let fallbacks = standby.fallbacks.sorted { $0.key < $1.key }.map { "\($0.key) \(Int($0.value))" }.joined(separator: ", ")
        return aligned(rows) + [
            "The standby servers' lookups were answered by: \(answered); fallbacks to the primary: \(fallbacks)",
            "(the standby shares this machine's cores with the primary: a cost per lookup, not the capacity a standby host adds)",
        ]
    }
}
