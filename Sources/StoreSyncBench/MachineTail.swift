import Crypto
import Foundation

/// This machine's own tail: the same CPU work done over and over, one job at a time.
///
/// On a shared virtual machine a job that does exactly the same work every time still takes
/// longer now and then: the hypervisor lends the core away, the kernel's own work and other
/// tenants' cache traffic fall into it. No code removes that. A lookup whose median is some
/// length can therefore have no better p99 than a fixed job of that length run in the same
/// stretches of the machine; the history phase runs a ``FixedJob`` beside its lookups, so its
/// report can say how much of a lookup's tail is the lookup's and how much the machine's.
struct MachineTail: Sendable {
    /// The median milliseconds the job was sized to take: the lookup's it stands beside.
    let sizedTo: Double
    /// Each job's milliseconds, every turn's.
    var milliseconds: [Double] = []

    /// How much longer the job's p99 is than its median: what the machine alone adds to a job's tail.
    var stretch: Double { Percentile.of(milliseconds, 99) / Percentile.of(milliseconds, 50) }

    /// The best p99 a job with median `p50` can have here: `p50` stretched as the fixed job's
    /// median stretched to its p99.
    func floorOfP99(atMedian p50: Double) -> Double { p50 * stretch }
}

/// The job ``MachineTail`` times: SHA-512 of a buffer, the hash Ed25519 signs with. CPU work of
/// one core streaming memory, as a large lookup's writing and signing do, with no lock, no I/O
/// and no allocation.
struct FixedJob: Sendable {
    /// What each run hashes.
    private let input: [UInt8]

    /// Bytes hashed to learn the machine's hashing speed before sizing the job.
    static let probeBytes = 1 << 20
    /// Runs timed at each sizing; their median sets the speed.
    static let probes = 15

    /// A job sized to take about `target` milliseconds at its median here.
    ///
    /// Sized twice: from a probe small enough to stay in the caches, then from the sized job's
    /// own median, since a buffer larger than the caches hashes slower per byte.
    init(taking target: Double) {
        precondition(target > 0, "a job is sized to a positive length")
        var input = [UInt8](repeating: 0x5A, count: Self.probeBytes)
        for _ in 0..<2 {
            let median = Percentile.of((0..<Self.probes).map { _ in Self.milliseconds(hashing: input) }, 50)
            let bytes = Double(input.count) * target / max(median, 0.001)
            input = [UInt8](repeating: 0x5A, count: Int(min(max(bytes, 4_096), Double(1 << 30))))
        }
        self.input = input
    }

    /// Runs the job one time after another for about `turn` and at least `minimum` times, at
    /// most `maximum`; answers each run's milliseconds.
    func run(for turn: Duration, minimum: Int, maximum: Int) -> [Double] {
        let start = ContinuousClock.now
        var milliseconds: [Double] = []
        while milliseconds.count < minimum || (ContinuousClock.now - start < turn && milliseconds.count < maximum) {
            milliseconds.append(Self.milliseconds(hashing: input))
        }
        return milliseconds
    }

    private static func milliseconds(hashing input: [UInt8]) -> Double {
        let start = ContinuousClock.now
        let digest = SHA512.hash(data: input)
        let elapsed = ContinuousClock.now - start
        withExtendedLifetime(digest) {}
        return elapsed.milliseconds
    }
}
