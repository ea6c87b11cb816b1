/// Everything one run measured; ``BenchReport`` turns it into text.
struct BenchResults: Sendable {
    var seedSeconds = 0.0
    var pgbench: [Int: LoadResult] = [:]
    var liveness: [Int: LoadResult] = [:]
    var cachedDevice: [Int: LoadResult] = [:]
    var cachedAdmin: [Int: LoadResult] = [:]
    /// Share of cached-run lookups answered from the snapshot cache.
    var cacheHitRatio: Double?
    var uncachedDevice: [Int: LoadResult] = [:]
    var uncachedAdmin: [Int: LoadResult] = [:]
    var restores: [RestoreBench.Timing] = []
    var mergeMilliseconds: [Double] = []
    var verificationsPerSecond = 0.0
    var residentIdle = 0
    var residentCachedLoad = 0
    var residentUncachedLoad = 0
    var residentRestores = 0
}
