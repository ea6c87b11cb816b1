/// One load run: throughput and latency as the load tool saw them.
struct LoadResult: Sendable {
    let requestsPerSecond: Double
    let p50Milliseconds: Double
    let p99Milliseconds: Double
    /// Requests answered with a status of 400 or more, plus socket errors: must be 0.
    let errors: Int

    /// The median of each figure over several runs of the same load, and every error: on a
    /// shared virtual machine one run can land on a noisy neighbour's burst.
    static func median(of runs: [LoadResult]) -> LoadResult? {
        guard !runs.isEmpty else { return nil }
        return LoadResult(
            requestsPerSecond: Percentile.of(runs.map(\.requestsPerSecond), 50),
            p50Milliseconds: Percentile.of(runs.map(\.p50Milliseconds), 50),
            p99Milliseconds: Percentile.of(runs.map(\.p99Milliseconds), 50), errors: runs.map(\.errors).reduce(0, +))
    }
}

/// Latency percentiles of a list of samples (nearest rank).
enum Percentile {
    static func of(_ values: [Double], _ percent: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
