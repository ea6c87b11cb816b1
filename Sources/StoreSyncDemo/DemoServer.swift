import Crypto
import Foundation
import StoreSyncAPI
import StoreSyncTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `storesync serve` subprocess on the embedded PostgreSQL, trusting a test root this demo
/// generated, so the demo can play the App Store (signing transactions and notifications).
final class DemoServer {
    let baseURL: URL
    let signer: AppStoreTestSigner
    /// Base64 Ed25519 public key of the server's snapshot key: what the devices pin.
    let publicKey: String
    private let process: ServerProcess

    private init(signer: AppStoreTestSigner, publicKey: String, process: ServerProcess) {
        self.baseURL = process.baseURL
        self.signer = signer
        self.publicKey = publicKey
        self.process = process
    }

    /// Writes the test PKI's root, the catalog and a signing key into the workspace, starts the
    /// server and waits until `/health/ready` answers.
    static func start(executable: URL, workspace: URL) async throws -> DemoServer {
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        let signer = AppStoreTestSigner(pki: try TestPKI.make(name: "StoreSync Demo"))
        let rootsFile = workspace.appendingPathComponent("test-root.pem")
        try Data(signer.pki.rootPEM.utf8).write(to: rootsFile)
        let catalogFile = workspace.appendingPathComponent("catalog.json")
        try StoreSyncJSON.makeEncoder().encode(CatalogResponse(products: TestCatalog.products)).write(to: catalogFile)
        let signingKey = Curve25519.Signing.PrivateKey()

        let process = try await ServerProcess.start(
            executable: executable, port: try FreePort.find(),
            settings: [
                "STORESYNC_DATA_DIR": workspace.appendingPathComponent("data").path,
                "STORESYNC_TRUSTED_ROOTS": rootsFile.path,
                "STORESYNC_CATALOG": catalogFile.path,
                "STORESYNC_BUNDLE_ID": signer.bundleId,
                "STORESYNC_APP_APPLE_ID": String(signer.appAppleId),
                "STORESYNC_ENVIRONMENT": "Sandbox",
                "STORESYNC_SIGNING_KEY": signingKey.rawRepresentation.base64EncodedString(),
                "STORESYNC_BCRYPT_COST": "4",
                "LOG_LEVEL": "warning",
            ],
            logFile: workspace.appendingPathComponent("server.log"))
        return DemoServer(
            signer: signer, publicKey: signingKey.publicKey.rawRepresentation.base64EncodedString(), process: process)
    }

    /// Plays Apple: posts a signed Server Notification V2.
    func postNotification(_ signedPayload: String) async throws -> Int {
        var request = URLRequest(url: baseURL.appendingPathComponent("v1/notifications/appstore"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try StoreSyncJSON.makeEncoder().encode(NotificationRequest(signedPayload: signedPayload))
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// Stops the server gracefully (which also stops the embedded PostgreSQL).
    func stop() async { await process.stop() }

    /// The end of the server's log, for a failure message.
    func logTail() -> String { process.logTail() }
}
