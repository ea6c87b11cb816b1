// swift-tools-version:6.3
import PackageDescription

// Benchmarks live in their own package so the main build (and CI) never compiles the
// benchmark harness; `make bench` builds this package in release mode.
let package = Package(
    name: "StoreSyncBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        // Named explicitly: a path dependency is otherwise identified by its directory name,
        // which is not "StoreSync" in a worktree or a CI clone.
        .package(name: "StoreSync", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "StoreSyncCore", package: "StoreSync"),
                .product(name: "StoreSyncAPI", package: "StoreSync"),
                .product(name: "StoreSyncTesting", package: "StoreSync"),
            ],
            path: "Benchmarks/CoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "VerificationBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AppStoreVerification", package: "StoreSync"),
                .product(name: "StoreSyncTesting", package: "StoreSync"),
            ],
            path: "Benchmarks/VerificationBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
