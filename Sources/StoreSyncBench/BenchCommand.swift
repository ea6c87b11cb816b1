import ArgumentParser
import Foundation

/// `storesync-bench`: what `make bench` runs. It starts a release `storesync serve` on its
/// embedded PostgreSQL, seeds it, loads it with pgbench and wrk, times restores beside their
/// floor, the client merge and JWS verification, sizes the storage, and prints each figure
/// next to its target; `--phases all,standby` adds the standby's lookups and `--accounts` runs
/// over a larger seed.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storesync-bench",
        abstract: "Measure StoreSync's lookup, restore, merge and verification speed against its targets.")

    @Option(help: "The storesync binary to measure (build it in release mode).")
    var server = ".build/release/storesync"

    @Option(help: "Accounts to seed, 3 purchases each (1000000 and 10000000 work the same way; the seed projects its size and refuses to fill the disk).")
    var accounts = 100_000

    @Option(help: "Accounts the lookup runs choose from, spread evenly over all seeded accounts (the hot set that fits the snapshot cache; the uncached runs use it too, so the cache is the only difference).")
    var hotAccounts = 20_000

    @Option(help: "Seconds of each pgbench and wrk run.")
    var seconds = 5

    @Option(help: "Rounds of each comparison; a route and its baseline take turns, and the report shows medians.")
    var rounds = 3

    @Option(help: "Concurrency levels (pgbench clients, wrk connections).")
    var concurrency: [Int] = [16, 64]

    @Option(help: "Restore sizes in entries.")
    var restoreSizes: [Int] = [10, 100, 1_000, 10_000]

    @Option(help: "The parts to run, comma-separated: client, cached, restores, uncached, mixed, history, or all (the default: these six); standby (lookups from a hot standby next to the primary's) runs only when named. The report leaves out what was not run.")
    var phases: BenchPhases = .all

    /// 100 s: 200 restores of 100 entries at 2/s, so their p99 is the third slowest (at 30 s, the
    /// nearest-rank p99 of 60 was the slowest one, a maximum rather than a percentile).
    @Option(help: "Seconds of the mixed phase's load (100: 200 restores of 100 entries, enough for a p99 that is not their maximum).")
    var mixedSeconds = 100

    @Option(help: "Purchases per account in the history phase.")
    var historySizes: [Int] = [1, 10, 100, 1_000, 10_000]

    @Option(help: "Working directory (default: a fresh temporary one, removed afterwards).")
    var workDirectory: String?

    mutating func run() async throws {
        let plan = BenchPlan(
            serverBinary: URL(fileURLWithPath: server), accounts: accounts, hotAccounts: min(hotAccounts, accounts),
            seconds: seconds, rounds: max(1, rounds), concurrency: concurrency, restoreSizes: restoreSizes,
            phases: phases, mixedSeconds: max(1, mixedSeconds), historySizes: historySizes)
        let workspace = try BenchWorkspace.make(at: workDirectory)
        defer { if workDirectory == nil { workspace.remove() } }
        let results = try await BenchRun(plan: plan, workspace: workspace).run()
        print(BenchReport(plan: plan, results: results).text)
    }
}

/// What one `make bench` run measures.
struct BenchPlan: Sendable {
    let serverBinary: URL
    let accounts: Int
    let hotAccounts: Int
    let seconds: Int
    let rounds: Int
    let concurrency: [Int]
    let restoreSizes: [Int]
    let phases: BenchPhases
    let mixedSeconds: Int
    let historySizes: [Int]

    /// The accounts the lookups pick from.
    var hotSet: HotSet { HotSet(count: hotAccounts, of: accounts) }
}
