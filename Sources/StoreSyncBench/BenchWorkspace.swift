import Foundation
import StoreSyncTesting

/// The files a bench run needs: a test PKI whose root the server trusts (the bench plays the
/// App Store), the catalog, keys, and the id and token lists the load scripts read.
struct BenchWorkspace: Sendable {
    let directory: URL
    /// The test App Store's root and catalog, and the server's signing key.
    let appStore: TestAppStoreFiles
    let adminKey: String

    var signer: AppStoreTestSigner { appStore.signer }
    var dataDirectory: URL { directory.appendingPathComponent("data") }
    var accountIdsFile: URL { directory.appendingPathComponent("account-ids.txt") }
    var tokensFile: URL { directory.appendingPathComponent("tokens.txt") }

    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    static func make(at path: String?) throws -> BenchWorkspace {
        let directory =
            path.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("storesync-bench-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let workspace = BenchWorkspace(
            directory: directory, appStore: try TestAppStoreFiles.write(into: directory, name: "StoreSync Bench"),
            adminKey: "bench-admin-\(UUID().uuidString)")
        return workspace
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
