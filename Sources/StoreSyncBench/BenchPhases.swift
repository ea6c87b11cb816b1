import ArgumentParser

/// The parts of a bench run; all by default, fewer while working on one of them.
struct BenchPhases: OptionSet, ExpressibleByArgument, Sendable {
    let rawValue: Int

    /// The client merge and JWS verification, without a server.
    static let client = BenchPhases(rawValue: 1 << 0)
    /// Lookups with the snapshot cache on, against `/health/live`.
    static let cached = BenchPhases(rawValue: 1 << 1)
    /// Restores of every size, new and repeated.
    static let restores = BenchPhases(rawValue: 1 << 2)
    /// Lookups with the snapshot cache off, against pgbench.
    static let uncached = BenchPhases(rawValue: 1 << 3)
    /// Lookups answered by a hot standby next to the primary's; only when asked for.
    static let standby = BenchPhases(rawValue: 1 << 4)
    static let all: BenchPhases = [.client, .cached, .restores, .uncached]

    private static let names: [(String, BenchPhases)] = [
        ("client", .client), ("cached", .cached), ("restores", .restores), ("uncached", .uncached), ("standby", .standby),
    ]

    init(rawValue: Int) {
        self.rawValue = rawValue
    }

    init?(argument: String) {
        var phases: BenchPhases = []
        for name in argument.split(separator: ",") {
            guard let phase = Self.names.first(where: { $0.0 == name })?.1 else { return nil }
            phases.insert(phase)
        }
        guard !phases.isEmpty else { return nil }
        self = phases
    }

    static var allValueStrings: [String] { names.map(\.0) }
}
