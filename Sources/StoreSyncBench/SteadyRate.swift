import StoreSyncTesting

/// Sends requests at a steady mean rate whatever their answers take (an open loop): a slow
/// answer holds back no later request, so a stall shows in the latencies instead of lowering the
/// load.
enum SteadyRate {
    /// One request's outcome: its answer or why it failed, and how long it took.
    struct Sample: Sendable {
        /// From sending the request to the end of its answer.
        let milliseconds: Double
        /// What the answer said; nil when the request failed.
        let answer: Answer?
        /// Why the request failed, if it did.
        let error: String?

        /// What the server took; nothing for a failed request.
        var accepted: Int { answer?.accepted ?? 0 }
        /// The server's own time for it; nil for a failed request, which has no server time to count.
        var serverMilliseconds: Double? { answer?.serverMilliseconds }
    }

    /// What a successful request's answer said.
    struct Answer: Sendable {
        /// What the server took: entries accepted, a notification processed, a session made.
        let accepted: Int
        /// The server's own time for the request (`Server-Timing`).
        let serverMilliseconds: Double
    }

    /// When each of `count` requests is sent, in seconds from the start: `count` points spread
    /// uniformly at random over `count / rate` seconds and sorted, which is a Poisson process at
    /// `rate` that happens to send `count` requests in that time.
    ///
    /// Independent users arrive this way. A fixed interval instead would lock every kind of
    /// request to the others' phase (a restore every 0.5 s met a sign-in on every whole second
    /// and a notification every time) and would never let two of a kind overlap; both are
    /// artifacts of the clock, not the load. The seed makes a run's schedule the same every time.
    static func poissonArrivals(count: Int, perSecond rate: Double, seed: UInt64) -> [Double] {
        guard count > 0, rate > 0 else { return [] }
        var generator = SeededGenerator(seed: seed)
        let window = Double(count) / rate
        return (0..<count).map { _ in Double.random(in: 0..<window, using: &generator) }.sorted()
    }

    /// Sends one request at each of `arrivals` (seconds from the start, ascending), the
    /// `index`-th request at `arrivals[index]`.
    static func run(arrivals: [Double], _ send: @escaping @Sendable (Int) async -> Sample) async -> [Sample] {
        guard !arrivals.isEmpty else { return [] }
        let start = ContinuousClock.now
        return await withTaskGroup(of: Sample.self) { group in
            for (index, offset) in arrivals.enumerated() {
                try? await Task.sleep(until: start + .seconds(offset), clock: .continuous)
                group.addTask { await send(index) }
            }
            var samples: [Sample] = []
            for await sample in group { samples.append(sample) }
            return samples
        }
    }

    /// Times `body`, which answers what the server said or throws why the request failed.
    static func timed(_ body: () async throws -> Answer) async -> Sample {
        let start = ContinuousClock.now
        do {
            let answer = try await body()
            return Sample(milliseconds: (ContinuousClock.now - start).milliseconds, answer: answer, error: nil)
        } catch {
            return Sample(milliseconds: (ContinuousClock.now - start).milliseconds, answer: nil, error: "\(error)")
        }
    }
}
