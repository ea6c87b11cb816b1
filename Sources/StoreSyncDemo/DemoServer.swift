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
    private let process: Process
    private let logFile: URL

    private init(baseURL: URL, signer: AppStoreTestSigner, publicKey: String, process: Process, logFile: URL) {
        self.baseURL = baseURL
        self.signer = signer
        self.publicKey = publicKey
        self.process = process
        self.logFile = logFile
    }

    /// Writes the test PKI's root, the catalog and a signing key into the workspace, starts the
    /// server and waits until `/health/ready` answers.
    static func start(executable: URL, workspace: URL) async throws -> DemoServer {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw DemoError("\(executable.path) is not an executable; build it with `swift build --product storesync`")
        }
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        let signer = AppStoreTestSigner(pki: try TestPKI.make(name: "StoreSync Demo"))
        let rootsFile = workspace.appendingPathComponent("test-root.pem")
        try Data(signer.pki.rootPEM.utf8).write(to: rootsFile)
        let catalogFile = workspace.appendingPathComponent("catalog.json")
        try StoreSyncJSON.makeEncoder().encode(CatalogResponse(products: TestCatalog.products)).write(to: catalogFile)
        let signingKey = Curve25519.Signing.PrivateKey()
        let port = try FreePort.find()

        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = nil
        environment.merge([
            "HTTP_HOST": "127.0.0.1",
            "HTTP_PORT": String(port),
            "STORESYNC_DATA_DIR": workspace.appendingPathComponent("data").path,
            "STORESYNC_TRUSTED_ROOTS": rootsFile.path,
            "STORESYNC_CATALOG": catalogFile.path,
            "STORESYNC_BUNDLE_ID": signer.bundleId,
            "STORESYNC_APP_APPLE_ID": String(signer.appAppleId),
            "STORESYNC_ENVIRONMENT": "Sandbox",
            "STORESYNC_SIGNING_KEY": signingKey.rawRepresentation.base64EncodedString(),
            "STORESYNC_BCRYPT_COST": "4",
            "LOG_LEVEL": "warning",
        ]) { _, demo in demo }

        let logFile = workspace.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve"]
        process.environment = environment
        process.standardOutput = log
        process.standardError = log
        try process.run()

        let server = DemoServer(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!, signer: signer,
            publicKey: signingKey.publicKey.rawRepresentation.base64EncodedString(), process: process, logFile: logFile)
        try await server.waitUntilReady()
        return server
    }

    /// Polls `/health/ready` for up to 90 s (the first start initialises a PostgreSQL cluster).
    private func waitUntilReady() async throws {
        let ready = baseURL.appendingPathComponent("health/ready")
        for _ in 0..<360 {
            guard process.isRunning else { throw DemoError("storesync serve exited with status \(process.terminationStatus)") }
            if let (_, response) = try? await URLSession.shared.data(from: ready),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return
            }
            try await Task.sleep(nanoseconds: 250_000_000)
        }
        throw DemoError("storesync serve did not become ready within 90 s")
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

    /// SIGTERM, then up to 30 s for a graceful stop (which also stops the embedded PostgreSQL).
    func stop() async {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<300 where process.isRunning {
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The end of the server's log, for a failure message.
    func logTail() -> String {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(30).joined(separator: "\n")
    }
}

struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
