import Foundation
import StoreSyncTesting

/// The phases of one bench run, in an order that keeps them from disturbing each other: the
/// client-side figures before any server runs; then, on a server with its snapshot cache, the
/// lookups (taking turns with `/health/live`), the restores beside their floor, the lookups
/// from a hot standby, and the mixed load; then, on a server without the cache, the lookups
/// (taking turns with pgbench on the same database) and the accounts with long histories.
struct BenchRun {
    let plan: BenchPlan
    let workspace: BenchWorkspace

    /// The phases a server with the snapshot cache runs, and those a server without it runs.
    static let cachedServerPhases: BenchPhases = [.cached, .restores, .standby, .mixed]
    static let uncachedServerPhases: BenchPhases = [.uncached, .history]

    func run() async throws -> BenchResults {
        try await checkTools()
        var results = BenchResults()
        let started = ContinuousClock.now
        if plan.phases.contains(.client) {
            let client = ClientBench(workspace: workspace)
            progress("client: merging 2 × 100,000 records and verifying JWS")
            results.mergeMilliseconds = client.mergeMilliseconds()
            results.verificationsPerSecond = try await client.verificationsPerSecond()
            results.durations.append(("client", (ContinuousClock.now - started).seconds))
        }
        var seeded = false
        if !plan.phases.isDisjoint(with: Self.cachedServerPhases) {
            progress("starting storesync (snapshot cache on) on its embedded PostgreSQL")
            let server = try await BenchServer.start(plan: plan, workspace: workspace, snapshotCache: true, label: "cached")
            do {
                try await seed(on: server, into: &results)
                seeded = true
                try await runCachedServerPhases(on: server, into: &results)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        }
        if !plan.phases.isDisjoint(with: Self.uncachedServerPhases) {
            progress("starting storesync with the snapshot cache off (every lookup reaches PostgreSQL)")
            let server = try await BenchServer.start(plan: plan, workspace: workspace, snapshotCache: false, label: "uncached")
            do {
                if seeded {
                    progress("vacuum and checkpoint after the writes")
                    try await BenchSeeder(database: server.database, accounts: plan.accounts).settle()
                } else {
                    try await seed(on: server, into: &results)
                }
                try await runUncachedServerPhases(on: server, into: &results)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        }
        results.durations.append(("whole run", (ContinuousClock.now - started).seconds))
        return results
    }

    private func runCachedServerPhases(on server: BenchServer, into results: inout BenchResults) async throws {
        var lastSweep: ContinuousClock.Instant?
        if plan.phases.contains(.cached) {
            try await phase("cached lookups", on: server, into: &results) { results in
                lastSweep = try await measureCached(server, into: &results)
            }
        }
        if plan.phases.contains(.restores) {
            try await phase("restores", on: server, into: &results) { results in
                try await measureRestores(on: server, into: &results)
            }
        }
        if plan.phases.contains(.standby) {
            try await phase("standby lookups", on: server, into: &results) { results in
                results.standby = try await StandbyBench(plan: plan, workspace: workspace).run(primary: server)
            }
        }
        if plan.phases.contains(.mixed) {
            try await phase("mixed load", on: server, into: &results) { results in
                try await measureMixed(on: server, after: lastSweep, into: &results)
            }
        }
    }

    private func runUncachedServerPhases(on server: BenchServer, into results: inout BenchResults) async throws {
        if plan.phases.contains(.uncached) {
            try await phase("uncached lookups", on: server, into: &results) { results in
                try await measureUncached(server, into: &results)
            }
        }
        if plan.phases.contains(.history) {
            try await phase("history", on: server, into: &results) { results in
                progress("history: accounts of \(plan.historySizes.map(String.init).joined(separator: ", ")) purchases and a 120-renewal subscription")
                results.history = try await HistoryBench(server: server.process, workspace: workspace, seconds: plan.seconds)
                    .run(sizes: plan.historySizes)
            }
        }
    }

    /// Runs one phase, recording its wall-clock time and the server's memory through it.
    private func phase(
        _ name: String, on server: BenchServer, into results: inout BenchResults,
        _ body: (inout BenchResults) async throws -> Void
    ) async throws {
        let start = ContinuousClock.now
        var measured = results
        let memory = try await MemoryTimeline.sample(name, on: server) { try await body(&measured) }
        results = measured
        results.memory.phases.append(memory)
        results.durations.append((name, (ContinuousClock.now - start).seconds))
    }

    private func checkTools() async throws {
        for tool in ["wrk", "pgbench"] where await !Shell.has(tool) {
            throw BenchError("\(tool) is missing; `make bench` installs it (scripts/install-deps.sh --bench)")
        }
    }

    private func seed(on server: BenchServer, into results: inout BenchResults) async throws {
        progress("seeding \(plan.accounts) accounts × 3 purchases")
        let seeder = BenchSeeder(database: server.database, accounts: plan.accounts)
        let start = ContinuousClock.now
        try await seeder.seed(into: workspace.dataDirectory) { progress($0) }
        results.seedSeconds = (ContinuousClock.now - start).seconds
        try await seeder.writeLoadFiles(for: plan.hotSet, accountIds: workspace.accountIdsFile, tokens: workspace.tokensFile)
        progress("vacuum and checkpoint after the seed")
        try await seeder.settle()
        results.seeded = try await DatabaseFootprint.read(from: server.database)
        results.durations.append(("seed", (ContinuousClock.now - start).seconds))
        try await Task.sleep(for: .seconds(2))
        results.memory.idle = await server.residentBytes() ?? 0
    }

    func progress(_ message: String) {
        FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
    }
}
