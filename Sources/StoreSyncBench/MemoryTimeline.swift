import Foundation

/// The server's resident memory through a bench run: idle after the seed, and for each phase
/// its peak while it ran and where it settled a little after.
struct MemoryTimeline: Sendable {
    struct Phase: Sendable {
        /// The phase, e.g. `restores`, and which server ran it.
        let name: String
        let peak: Int
        /// Read two seconds after the phase ended, the server idle.
        let after: Int
    }

    var idle = 0
    var phases: [Phase] = []

    /// How long after a phase its settled reading is taken.
    static let settling = Duration.seconds(2)

    /// Runs `body` while sampling `server`'s memory, and answers the phase's peak and, after
    /// ``settling``, where it settled.
    static func sample(_ name: String, on server: BenchServer, _ body: () async throws -> Void) async throws -> Phase {
        let sampler = ResidentMemorySampler()
        sampler.start(pid: server.processIdentifier)
        do {
            try await body()
        } catch {
            _ = await sampler.stop()
            throw error
        }
        let peak = await sampler.stop()
        try await Task.sleep(for: settling)
        return Phase(name: name, peak: peak, after: await server.residentBytes() ?? 0)
    }

    func phase(_ name: String) -> Phase? { phases.first { $0.name == name } }

    /// The highest reading of the run.
    var peak: Int { phases.map(\.peak).max() ?? idle }
}
