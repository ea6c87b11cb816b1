/// One load run: throughput and latency as the load tool saw them.
struct LoadResult: Sendable {
    let requestsPerSecond: Double
    let p50Milliseconds: Double
    let p99Milliseconds: Double
    /// Requests answered with a status of 400 or more, plus socket errors: must be 0.
    let errors: Int
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
