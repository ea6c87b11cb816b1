// swift-tools-version:6.2
import PackageDescription

/// One strict settings block, applied to every target (STYLE.md).
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "StoreSync",
    // The server needs macOS 15 (swift-configuration, Hummingbird 2); StoreSyncClient itself
    // uses nothing newer than iOS 16 / macOS 13 APIs.
    platforms: [.macOS(.v15), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "PostgresLibPQ", targets: ["PostgresLibPQ"]),
        .library(name: "StoreSyncCore", targets: ["StoreSyncCore"]),
        .library(name: "StoreSyncAPI", targets: ["StoreSyncAPI"]),
        .library(name: "AppStorePayloads", targets: ["AppStorePayloads"]),
        .library(name: "AppStoreVerification", targets: ["AppStoreVerification"]),
        .library(name: "StoreSyncServer", targets: ["StoreSyncServer"]),
        .library(name: "StoreSyncClient", targets: ["StoreSyncClient"]),
        .library(name: "StoreSyncTesting", targets: ["StoreSyncTesting"]),
        .executable(name: "storesync", targets: ["storesync"]),
        .executable(name: "storesync-demo", targets: ["StoreSyncDemo"]),
        .executable(name: "storesync-bench", targets: ["StoreSyncBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // MARK: PostgreSQL

        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        // glibc's allocator controls, which the server uses to bound its memory (HeapMemory).
        .systemLibrary(name: "CMalloc"),
        // Threads' CPU affinity, which the server uses to spread a job's slices
        // over the cores (CoreSpread).
        .systemLibrary(name: "CSchedAffinity"),
        .target(
            name: "PostgresLibPQ",
            dependencies: [
                "CLibPQ",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),

        // A throwaway PostgreSQL cluster per test process and fresh databases in it: the
        // tests of PostgresLibPQ and of StoreSync share it.
        .target(
            name: "PostgresLibPQTesting",
            dependencies: ["PostgresLibPQ", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),

        // MARK: Domain and wire

        .target(name: "StoreSyncCore", swiftSettings: strictSettings),
        .target(name: "StoreSyncAPI", dependencies: ["StoreSyncCore"], swiftSettings: strictSettings),
        // Apple's signed payload formats, decoded but not verified: shared by the verifier and
        // the client (which may read a JWS it cannot verify).
        .target(name: "AppStorePayloads", dependencies: ["StoreSyncCore"], swiftSettings: strictSettings),
        // Internal (no product): the wire's fast paths, below everything that reads or writes
        // the wire and above the plain Codable types (see its landing page).
        .target(
            name: "StoreSyncWire",
            dependencies: ["AppStorePayloads", "StoreSyncAPI", "StoreSyncCore"],
            swiftSettings: strictSettings
        ),

        // MARK: Verification

        .target(
            name: "AppStoreVerification",
            dependencies: [
                "AppStorePayloads",
                "StoreSyncCore",
                "StoreSyncWire",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            resources: [.copy("Resources/AppleRootCA-G3.pem")],
            swiftSettings: strictSettings
        ),

        // MARK: Server

        .target(
            name: "StoreSyncServer",
            dependencies: [
                "AppStorePayloads",
                "AppStoreVerification",
                "CMalloc",
                "CSchedAffinity",
                "PostgresLibPQ",
                "StoreSyncAPI",
                "StoreSyncCore",
                "StoreSyncWire",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // Resources/Schema links to the package's Schema/: its migrations are copied into the
            // server's resource bundle (processed resources follow the link; copied ones would
            // keep it), so no binary reads them from its working directory.
            exclude: ["Resources/Schema/README.md"],
            resources: [.copy("Resources/openapi.yaml"), .process("Resources/Schema")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "storesync",
            dependencies: [
                "PostgresLibPQ",
                "StoreSyncCore",
                "StoreSyncServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Client

        .target(
            name: "StoreSyncClient",
            dependencies: [
                "AppStorePayloads",
                "StoreSyncAPI",
                "StoreSyncCore",
                // Checks snapshot signatures over the canonical bytes the server signs.
                "StoreSyncWire",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Test support and demo

        .target(
            name: "StoreSyncTesting",
            dependencies: [
                "AppStoreVerification",
                "PostgresLibPQ",
                "PostgresLibPQTesting",
                "StoreSyncAPI",
                "StoreSyncClient",
                "StoreSyncCore",
                "StoreSyncServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "StoreSyncDemo",
            dependencies: [
                "AppStoreVerification",
                "StoreSyncAPI",
                "StoreSyncClient",
                "StoreSyncCore",
                "StoreSyncTesting",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),

        // `make bench`: drives a release `storesync serve` with pgbench and wrk.
        .executableTarget(
            name: "StoreSyncBench",
            dependencies: [
                "AppStorePayloads",
                "AppStoreVerification",
                "PostgresLibPQ",
                "PostgresLibPQTesting",
                "StoreSyncAPI",
                "StoreSyncCore",
                "StoreSyncServer",
                "StoreSyncTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Tests

        .testTarget(name: "CLibPQTests", dependencies: ["CLibPQ"], swiftSettings: strictSettings),
        .testTarget(
            name: "PostgresLibPQTests",
            dependencies: [
                "CLibPQ",
                "PostgresLibPQ",
                "PostgresLibPQTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StoreSyncCoreTests",
            dependencies: ["StoreSyncCore", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StoreSyncAPITests",
            dependencies: ["StoreSyncAPI", "StoreSyncCore", "StoreSyncTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AppStorePayloadsTests",
            dependencies: ["AppStorePayloads", "StoreSyncCore", "StoreSyncTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StoreSyncWireTests",
            dependencies: [
                "AppStorePayloads", "StoreSyncAPI", "StoreSyncCore", "StoreSyncTesting", "StoreSyncWire",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AppStoreVerificationTests",
            dependencies: [
                "AppStoreVerification",
                "StoreSyncCore",
                "StoreSyncTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StoreSyncServerTests",
            dependencies: [
                "AppStorePayloads",
                "AppStoreVerification",
                "StoreSyncServer",
                "StoreSyncTesting",
                "StoreSyncAPI",
                "StoreSyncCore",
                "StoreSyncWire",
                "PostgresLibPQ",
                "PostgresLibPQTesting",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StoreSyncBenchTests",
            dependencies: ["StoreSyncBench", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "storesyncTests",
            dependencies: [
                "storesync", "StoreSyncDemo", "PostgresLibPQ", "PostgresLibPQTesting", "StoreSyncAPI", "StoreSyncCore",
                "StoreSyncTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StoreSyncClientTests",
            dependencies: [
                "AppStoreVerification", "StoreSyncAPI", "StoreSyncClient", "StoreSyncCore", "StoreSyncServer",
                "StoreSyncTesting", "StoreSyncWire",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ScenarioTests",
            dependencies: [
                "AppStorePayloads",
                "StoreSyncClient",
                "StoreSyncServer",
                "StoreSyncTesting",
                "StoreSyncAPI",
                "StoreSyncCore",
                "PostgresLibPQ",
                "PostgresLibPQTesting",
            ],
            swiftSettings: strictSettings
        ),
    ]
)
