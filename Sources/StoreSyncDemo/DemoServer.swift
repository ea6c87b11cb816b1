import Crypto
import Foundation
import StoreSyncAPI
import StoreSyncTesting

/// A `storesync serve` subprocess on the embedded PostgreSQL, trusting a test root this demo
/// generated and asking a verifyReceipt stand-in about receipts, so the demo can play the App
/// Store (signing transactions and notifications, vouching for receipts).
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
    /// server, asking `receipts` about app receipts, and waits until `/health/ready` answers.
    static func start(executable: URL, workspace: URL, receipts: AppStoreReceiptStandIn) async throws -> DemoServer {
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        let files = try TestAppStoreFiles.write(into: workspace, name: "StoreSync Demo")
        let process = try await ServerProcess.start(
            executable: executable, port: try FreePort.find(),
            settings: files.settings.merging([
                "STORESYNC_DATA_DIR": workspace.appendingPathComponent("data").path, "LOG_LEVEL": "warning",
                "STORESYNC_VERIFY_RECEIPT_URL": receipts.productionURL.absoluteString,
                "STORESYNC_VERIFY_RECEIPT_SANDBOX_URL": receipts.sandboxURL.absoluteString,
                "STORESYNC_SHARED_SECRET": "demo-shared-secret",
            ]) { _, demo in demo },
            logFile: workspace.appendingPathComponent("server.log"))
        return DemoServer(
            signer: files.signer, publicKey: files.signingKey.publicKey.rawRepresentation.base64EncodedString(),
            process: process)
    }

    /// Plays Apple: posts a signed Server Notification V2.
    func postNotification(_ signedPayload: String) async throws -> Int {
        try await process.send("POST", "/v1/notifications/appstore", json: NotificationRequest(signedPayload: signedPayload)).status
    }

    /// Stops the server gracefully (which also stops the embedded PostgreSQL).
    func stop() async { await process.stop() }

    /// The end of the server's log, for a failure message.
    func logTail() -> String { process.logTail() }
}
