import Benchmark
import Foundation
import StoreSyncCore
import StoreSyncTesting

/// Merging two devices' ledgers and deriving entitlements, the hot path of every restore.
///
/// Each size runs as one benchmark so `mallocCountTotal` can be compared across sizes: the
/// merge and the derivation allocate a fixed number of buffers, so the count must stay flat
/// (or at most grow linearly) from 10k to 100k records per device.
let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 2,
        maxDuration: .seconds(10),
        maxIterations: 30)

    for recordsPerDevice in [10_000, 100_000] {
        Benchmark("Merge 2x\(recordsPerDevice / 1000)k + derive", configuration: configuration) { benchmark, workload in
            for _ in benchmark.scaledIterations {
                let merged = workload.deviceA.merging(workload.deviceB)
                blackHole(entitlements(ledger: merged, catalog: workload.catalog, at: workload.evaluatedAt))
            }
        } setup: {
            LedgerWorkload(recordsPerDevice: recordsPerDevice)
        }

        Benchmark("Merge only 2x\(recordsPerDevice / 1000)k", configuration: configuration) { benchmark, workload in
            for _ in benchmark.scaledIterations {
                blackHole(workload.deviceA.merging(workload.deviceB))
            }
        } setup: {
            LedgerWorkload(recordsPerDevice: recordsPerDevice)
        }

        Benchmark("Derive only \(recordsPerDevice / 1000)k-per-device merged", configuration: configuration) {
            benchmark, workload in
            for _ in benchmark.scaledIterations {
                blackHole(entitlements(ledger: workload.merged, catalog: workload.catalog, at: workload.evaluatedAt))
            }
        } setup: {
            LedgerWorkload(recordsPerDevice: recordsPerDevice)
        }
    }
}
