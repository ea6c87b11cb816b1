/// Everything one run measured; ``BenchReport`` turns it into text.
struct BenchResults: Sendable {
    var seedSeconds = 0.0
    /// The database after the seed.
    var seeded: DatabaseFootprint?
    /// The database before and after the restores: their difference is what restored
    /// purchases, each with its JWS, take.
    var beforeRestores: DatabaseFootprint?
    var afterRestores: DatabaseFootprint?
    var pgbench: [Int: LoadResult] = [:]
    var liveness: [Int: LoadResult] = [:]
    /// Lookups with the snapshot cache on, over the hot set.
    var cached = LookupRuns()
    /// Share of cached-run lookups answered from the snapshot cache.
    var cacheHitRatio: Double?
    /// Lookups with the snapshot cache off, over the same hot set.
    var uncached = LookupRuns()
    var restores: [RestoreBench.Timing] = []
    var mixed: MixedLoad.Result?
    var history = HistoryBench.Results()
    var mergeMilliseconds: [Double] = []
    var verificationsPerSecond = 0.0
    /// The server's resident memory, idle and phase by phase.
    var memory = MemoryTimeline()
    /// Wall-clock seconds of each part of the run, in order.
    var durations: [(part: String, seconds: Double)] = []
    /// The standby phase (`--phases standby`), when it ran.
    var standby: StandbyBench.Results?
}

/// The two lookup routes' runs, by concurrency.
struct LookupRuns: Sendable {
    /// `GET /v1/entitlements` with device tokens.
    var device: [Int: LoadResult] = [:]
    /// `GET /v1/admin/accounts/{id}/entitlements` with the admin key.
    var admin: [Int: LoadResult] = [:]
}
