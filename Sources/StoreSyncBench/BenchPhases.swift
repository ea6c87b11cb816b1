import ArgumentParser

/// The parts of a bench run: every measurement by default (`all`), fewer while working on one of
/// them, and the standby's lookups when named (`--phases all,standby`).
struct BenchPhases: OptionSet, ExpressibleByArgument, Sendable {
    let rawValue: Int

    /// The client merge and JWS verification, without a server.
    static let client = BenchPhases(rawValue: 1 << 0)
    /// Lookups with the snapshot cache on, against `/health/live`.
    static let cached = BenchPhases(rawValue: 1 << 1)
    /// Restores of every size, new and repeated, each new one beside its floor; then the storage
    /// each restored purchase takes.
    static let restores = BenchPhases(rawValue: 1 << 2)
    /// Lookups with the snapshot cache off, against pgbench.
    static let uncached = BenchPhases(rawValue: 1 << 3)
    /// Lookups at 16 connections while restores, notifications and sign-ins run at steady rates.
    static let mixed = BenchPhases(rawValue: 1 << 8)
    /// Uncached lookups of accounts with 1 to 10,000 purchases and a 120-renewal subscription.
    static let history = BenchPhases(rawValue: 1 << 9)
    static let all: BenchPhases = [.client, .cached, .restores, .uncached, .mixed, .history]

    /// Lookups answered by a hot standby next to the primary's: run only when named, since it
    /// starts a standby and three more servers on the same cores, which tells the cost of a
    /// standby read rather than the capacity a standby host adds.
    static let standby = BenchPhases(rawValue: 1 << 4)

    private static let names: [(String, BenchPhases)] = [
        ("client", .client), ("cached", .cached), ("restores", .restores), ("uncached", .uncached),
        ("standby", .standby), ("mixed", .mixed), ("history", .history), ("all", .all),
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

    var defaultValueDescription: String {
        self == .all ? "all" : Self.names.filter { contains($0.1) && $0.0 != "all" }.map(\.0).joined(separator: ",")
    }
}
