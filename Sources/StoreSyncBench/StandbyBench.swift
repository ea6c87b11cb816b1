import Foundation
import Logging
import PostgresLibPQ
import StoreSyncTesting

/// `--phases standby` (not in the default run): device lookups answered by a hot standby
/// (`DATABASE_READ_URL`) next to the same lookups answered by the primary, with the snapshot
/// cache on and off.
///
/// A standby of the seeded embedded cluster is made with pg_basebackup and started beside it;
/// three more servers run on the primary: with the standby (cache on, cache off) and without
/// (cache off; the running server is the primary with its cache on). On one machine the
/// standby shares the cores with the primary, so this shows what reading from a standby costs
/// a lookup and that lookups reach it, not what a standby on a host of its own adds.
struct StandbyBench {
    let plan: BenchPlan
    let workspace: BenchWorkspace

    /// What the phase measured.
    struct Results: Sendable {
        /// Device lookups by configuration (`primary, cached`, …), per concurrency: medians of the rounds.
        var lookups: [String: [Int: LoadResult]] = [:]
        /// Who answered the standby servers' lookups (`storesync_entitlement_lookups_total{source}`).
        var sources: [String: Double] = [:]
        /// Why lookups the standby could have answered went to the primary (`storesync_standby_fallbacks_total{reason}`).
        var fallbacks: [String: Double] = [:]

        static let configurations = ["primary, cached", "standby, cached", "primary, uncached", "standby, uncached"]
    }

    /// Runs the phase beside `primary`, the running server on the seeded embedded cluster.
    func run(primary: BenchServer) async throws -> Results {
        progress("making a hot standby of the embedded cluster (pg_basebackup)")
        let cluster = EmbeddedPostgres(
            directory: workspace.dataDirectory.appendingPathComponent("postgres", isDirectory: true),
            logger: Logger(label: "storesync.bench"))
        let standby = try await cluster.makeStandby(directory: workspace.file("standby"), options: EmbeddedPostgres.Options())
        try await standby.start()
        var standbyDatabase = standby.configuration
        standbyDatabase.database = primary.database.database
        let reads = ["DATABASE_READ_URL": try BenchServer.url(of: standbyDatabase)]
        let uncached = ["STORESYNC_SNAPSHOT_CACHE_ENTRIES": "0"]
        var extra: [BenchServer] = []
        do {
            for (label, settings) in [("standby-cached", reads), ("primary-uncached", uncached), ("standby-uncached", reads.merging(uncached) { $1 })] {
                progress("starting storesync (\(label)) on the primary")
                extra.append(try await primary.secondInstance(plan: plan, label: label, settings: settings))
            }
            let results = try await measure(Array(zip(Results.configurations, [primary] + extra)))
            for server in extra { await server.stop() }
            try await standby.stop()
            return results
        } catch {
            for server in extra { await server.stop() }
            try? await standby.stop()
            throw error
        }
    }

    /// Per concurrency: each server's session (and snapshot) caches warmed, then rounds in
    /// which the four configurations take turns.
    private func measure(_ servers: [(name: String, server: BenchServer)]) async throws -> Results {
        var results = Results()
        for connections in plan.concurrency {
            for (name, server) in servers {
                progress("warming \(name) with the \(plan.hotAccounts) devices of the hot set")
                _ = try await Wrk(baseURL: server.baseURL, workspace: workspace)
                    .run(.everyDevice(accounts: plan.hotAccounts), connections: 16, seconds: max(1, plan.hotAccounts / 3_000 + 1))
            }
            var runs: [String: [LoadResult]] = [:]
            for _ in 0..<plan.rounds {
                for (name, server) in servers {
                    progress("wrk: GET /v1/entitlements (\(name)), \(connections) connections")
                    runs[name, default: []].append(
                        try await Wrk(baseURL: server.baseURL, workspace: workspace)
                            .run(.deviceEntitlements(accounts: plan.hotAccounts), connections: connections, seconds: plan.seconds))
                }
            }
            for (name, measured) in runs { results.lookups[name, default: [:]][connections] = LoadResult.median(of: measured) }
        }
        for (name, server) in servers where name.hasPrefix("standby") {
            let samples = MetricsSamples(try await server.process.send("GET", "/metrics", timeout: .seconds(10)).body)
            for source in ["cache", "standby", "primary"] {
                results.sources[source, default: 0] += samples.value("storesync_entitlement_lookups_total{source=\"\(source)\"}")
            }
            for reason in ["behind", "lagging", "unavailable", "failed"] {
                results.fallbacks[reason, default: 0] += samples.value("storesync_standby_fallbacks_total{reason=\"\(reason)\"}")
            }
        }
        return results
    }

    private func progress(_ message: String) {
        FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
    }
}
