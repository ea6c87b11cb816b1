import Crypto
import Foundation
import StoreSyncAPI
import StoreSyncTesting

/// The files a bench run needs: a test PKI whose root the server trusts (the bench plays the
/// App Store), the catalog, keys, and the id and token lists the load scripts read.
struct BenchWorkspace: Sendable {
    let directory: URL
    let signer: AppStoreTestSigner
    let adminKey: String
    let signingKey: String

    var rootsFile: URL { directory.appendingPathComponent("roots.pem") }
    var catalogFile: URL { directory.appendingPathComponent("catalog.json") }
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
            directory: directory, signer: AppStoreTestSigner(pki: try TestPKI.make(name: "StoreSync Bench")),
            adminKey: "bench-admin-\(UUID().uuidString)",
            signingKey: Curve25519.Signing.PrivateKey().rawRepresentation.base64EncodedString())
        try Data(workspace.signer.pki.rootPEM.utf8).write(to: workspace.rootsFile)
        try StoreSyncJSON.makeEncoder().encode(CatalogResponse(products: TestCatalog.products))
            .write(to: workspace.catalogFile)
        return workspace
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
