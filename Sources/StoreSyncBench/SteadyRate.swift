/// Sends requests at a fixed rate whatever their answers take (an open loop): a slow answer
/// holds back no later request, so a stall shows in the latencies instead of lowering the load.
enum SteadyRate {
    /// One request's outcome.
    struct Sample: Sendable {
        /// From sending the request to the end of its answer.
        let milliseconds: Double
        /// What the server took: entries accepted, a notification processed, a session made.
        let accepted: Int
        /// Why the request failed, if it did.
        let error: String?
    }

    /// Sends `count` requests, the `index`-th at `index / rate` seconds after the start.
    static func run(count: Int, perSecond rate: Double, _ send: @escaping @Sendable (Int) async -> Sample) async
        -> [Sample]
    {
        guard count > 0, rate > 0 else { return [] }
        let start = ContinuousClock.now
        return await withTaskGroup(of: Sample.self) { group in
            for index in 0..<count {
                try? await Task.sleep(until: start + .seconds(Double(index) / rate), clock: .continuous)
                group.addTask { await send(index) }
            }
            var samples: [Sample] = []
            for await sample in group { samples.append(sample) }
            return samples
        }
    }

    /// Times `body`, which answers what the server took or throws why the request failed.
    static func timed(_ body: () async throws -> Int) async -> Sample {
        let start = ContinuousClock.now
        do {
            let accepted = try await body()
            return Sample(milliseconds: (ContinuousClock.now - start).milliseconds, accepted: accepted, error: nil)
        } catch {
            return Sample(milliseconds: (ContinuousClock.now - start).milliseconds, accepted: 0, error: "\(error)")
        }
    }
}
