import Foundation
import StoreSyncTesting

extension BenchRun {
    /// The cached lookups take turns with `/health/live`, their baseline.
    ///
    /// - Returns: When the last sweep of the hot set ended.
    func measureCached(_ server: BenchServer, into results: inout BenchResults) async throws -> ContinuousClock.Instant? {
        let wrk = Wrk(baseURL: server.baseURL, workspace: workspace)
        var counted = CacheCounters(hits: 0, misses: 0)
        var warmed: ContinuousClock.Instant?
        for connections in plan.concurrency {
            progress("warming the snapshot and session caches with \(plan.hotSet.count) accounts")
            warmed = try await warm(wrk, after: warmed)
            let before = try await CacheCounters.read(from: server.process)
            let runs = try await measureRounds(connections: connections, label: "cached") {
                progress("wrk: GET /health/live, \(connections) connections")
                return try await wrk.run(.liveness, connections: connections, seconds: plan.seconds)
            } lookup: { target in
                try await wrk.run(target, connections: connections, seconds: plan.seconds)
            }
            counted = counted.adding(try await CacheCounters.read(from: server.process), since: before)
            results.liveness[connections] = runs.baseline
            results.cached.device[connections] = runs.device
            results.cached.admin[connections] = runs.admin
        }
        results.cacheHitRatio = counted.hitRatio
        return warmed
    }

    /// Asks once for every account of the hot set, so each concurrency level is measured warm:
    /// the session cache (and, when on, the snapshot cache) keeps an entry for at most 60 s,
    /// and random picks leave a third of the accounts untouched after as many requests as
    /// there are accounts. The uncached rows measure the snapshot cache's absence, not
    /// sign-in lookups.
    ///
    /// A hit does not renew an entry, so the sweep first waits until every entry of the
    /// previous level's sweep (`previous`, when it ended) has expired: otherwise it would only
    /// hit them, and they would all expire in the middle of this level's rounds.
    ///
    /// - Returns: When this sweep ended.
    func warm(_ wrk: Wrk, after previous: ContinuousClock.Instant?) async throws -> ContinuousClock.Instant {
        if let previous {
            try await Task.sleep(until: previous.advanced(by: Self.cacheEntryLifetime + .seconds(1)), clock: .continuous)
        }
        let seconds = max(5, plan.hotSet.count / 3_000 + 1)
        _ = try await wrk.run(.everyDevice(accounts: plan.hotSet.count), connections: 16, seconds: seconds)
        return .now
    }

    /// How long the server keeps a session or a snapshot in its caches.
    static let cacheEntryLifetime = Duration.seconds(60)

    /// The uncached lookups take turns with pgbench running the same statement on the same
    /// database, their baseline.
    func measureUncached(_ server: BenchServer, into results: inout BenchResults) async throws {
        let wrk = Wrk(baseURL: server.baseURL, workspace: workspace)
        // pgbench picks from the accounts wrk picks from: a baseline over a wider set would
        // miss PostgreSQL's buffers more often than the server does, and flatter the ratio.
        let pgbench = Pgbench(database: server.database, hotSet: plan.hotSet, workspace: workspace)
        var warmed: ContinuousClock.Instant?
        for connections in plan.concurrency {
            // Also opens the pool's connections and prepares the statements before anything is
            // timed. The same accounts as the cached runs, so the snapshot cache is the only
            // difference: each snapshot is still read, derived and signed per request.
            progress("signing in the \(plan.hotSet.count) devices of the hot set (session cache)")
            warmed = try await warm(wrk, after: warmed)
            let runs = try await measureRounds(connections: connections, label: "every request to PostgreSQL") {
                progress("pgbench: the server's lookup statement, \(connections) clients")
                return try await pgbench.run(clients: connections, seconds: plan.seconds)
            } lookup: { target in
                try await wrk.run(target, connections: connections, seconds: plan.seconds)
            }
            results.pgbench[connections] = runs.baseline
            results.uncached.device[connections] = runs.device
            results.uncached.admin[connections] = runs.admin
        }
    }

    /// Medians of `plan.rounds` rounds of baseline, device route, admin route, in turn: a
    /// ratio is only meaningful when both sides saw the same machine.
    private func measureRounds(
        connections: Int, label: String, baseline: () async throws -> LoadResult,
        lookup: (Wrk.Target) async throws -> LoadResult
    ) async throws -> (baseline: LoadResult?, device: LoadResult?, admin: LoadResult?) {
        var (baselines, devices, admins) = ([LoadResult](), [LoadResult](), [LoadResult]())
        for _ in 0..<plan.rounds {
            baselines.append(try await baseline())
            progress("wrk: GET /v1/entitlements (\(label)), \(connections) connections")
            devices.append(try await lookup(.deviceEntitlements(accounts: plan.hotSet.count)))
            progress("wrk: GET /v1/admin/accounts/{id}/entitlements (\(label)), \(connections) connections")
            admins.append(try await lookup(.adminEntitlements(accounts: plan.hotSet.count)))
        }
        return (LoadResult.median(of: baselines), LoadResult.median(of: devices), LoadResult.median(of: admins))
    }
}

/// The server's snapshot cache counters, read from `/metrics`.
struct CacheCounters {
    let hits: Double
    let misses: Double

    static func read(from server: ServerProcess) async throws -> CacheCounters {
        let samples = MetricsSamples(try await server.send("GET", "/metrics", timeout: .seconds(10)).body)
        func counter(_ result: String) -> Double {
            samples.value("storesync_snapshot_cache_lookups_total{result=\"\(result)\"}")
        }
        return CacheCounters(hits: counter("hit"), misses: counter("miss"))
    }

    /// These counts plus what `later` counted since `earlier`.
    func adding(_ later: CacheCounters, since earlier: CacheCounters) -> CacheCounters {
        CacheCounters(hits: hits + later.hits - earlier.hits, misses: misses + later.misses - earlier.misses)
    }

    var hitRatio: Double? {
        hits + misses > 0 ? hits / (hits + misses) : nil
    }
}
