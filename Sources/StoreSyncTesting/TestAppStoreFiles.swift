public import Crypto
public import Foundation
import StoreSyncAPI

/// What a real `storesync serve` needs to trust the test App Store, as an operator would give
/// it: the test PKI's root and the test catalog as files, a snapshot signing key, and the
/// settings naming them. The demo, `make bench` and the kill test start the binary with these.
public struct TestAppStoreFiles: Sendable {
    /// Signs what "Apple" sends; its root is in ``rootsFile``.
    public let signer: AppStoreTestSigner
    /// The server's snapshot key (devices pin its public half).
    public let signingKey: Curve25519.Signing.PrivateKey
    public let rootsFile: URL
    public let catalogFile: URL

    /// Writes a new test PKI's root and ``TestCatalog`` into `directory`.
    ///
    /// - Parameters:
    ///   - directory: An existing directory.
    ///   - name: The test PKI's common-name prefix.
    /// - Throws: File-system and key-generation errors.
    public static func write(into directory: URL, name: String = "StoreSync Test") throws -> TestAppStoreFiles {
        let signer = AppStoreTestSigner(pki: try TestPKI.make(name: name))
        let files = TestAppStoreFiles(
            signer: signer, signingKey: Curve25519.Signing.PrivateKey(),
            rootsFile: directory.appendingPathComponent("roots.pem"),
            catalogFile: directory.appendingPathComponent("catalog.json"))
        try Data(signer.pki.rootPEM.utf8).write(to: files.rootsFile)
        try StoreSyncJSON.makeEncoder().encode(CatalogResponse(products: TestCatalog.products)).write(to: files.catalogFile)
        return files
    }

    /// The server settings for these files: the test app's identity in the Sandbox, the roots,
    /// the catalog, the signing key, and the cheapest bcrypt cost (sign-ups are not measured).
    public var settings: [String: String] {
        [
            "STORESYNC_BUNDLE_ID": signer.bundleId,
            "STORESYNC_APP_APPLE_ID": String(signer.appAppleId),
            "STORESYNC_ENVIRONMENT": "Sandbox",
            "STORESYNC_TRUSTED_ROOTS": rootsFile.path,
            "STORESYNC_CATALOG": catalogFile.path,
            "STORESYNC_SIGNING_KEY": signingKey.rawRepresentation.base64EncodedString(),
            "STORESYNC_BCRYPT_COST": "4",
        ]
    }
}
