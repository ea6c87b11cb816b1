/// Everything one run measured; ``BenchReport`` turns it into text.
struct BenchResults: Sendable {
    var seedSeconds = 0.0
    var pgbench: [Int: LoadResult] = [:]
    var liveness: [Int: LoadResult] = [:]
    /// Lookups with the snapshot cache on, over the hot set.
    var cached = LookupRuns()
    /// Share of cached-run lookups answered from the snapshot cache.
    var cacheHitRatio: Double?
    /// Lookups with the snapshot cache off, over the same hot set.
    var uncached = LookupRuns()
    var restores: [RestoreBench.Timing] = []
    var mergeMilliseconds: [Double] = []
    var verificationsPerSecond = 0.0
    var residentIdle = 0
    var residentCachedLoad = 0
    var residentUncachedLoad = 0
    var residentRestores = 0
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
