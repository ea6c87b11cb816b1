// swift-tools-version:6.2
import PackageDescription

// An app's view of StoreSync: it adds the package and depends on the `StoreSyncClient`
// product alone. `scripts/check-client-consumer.sh` builds it and fails if the server's
// dependencies (Hummingbird, NIO, libpq, AsyncHTTPClient) were compiled.
let package = Package(
    name: "ClientConsumer",
    platforms: [.macOS(.v15), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        .package(name: "StoreSync", path: "../../..")
    ],
    targets: [
        .executableTarget(
            name: "ClientConsumer",
            dependencies: [.product(name: "StoreSyncClient", package: "StoreSync")],
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    ]
)
