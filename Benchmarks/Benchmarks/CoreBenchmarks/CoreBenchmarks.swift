import Benchmark

// Filled by the issue that owns this benchmark.
let benchmarks: @Sendable () -> Void = {}
