import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A running `storesync serve` on a free port (HTTP_PORT=0), found from the line it logs, and
/// a way to kill it as a crash would.
final class ServerProcess: Sendable {
    let process: Process
    let baseURL: URL
    let logFile: URL

    private init(process: Process, baseURL: URL, logFile: URL) {
        self.process = process
        self.baseURL = baseURL
        self.logFile = logFile
    }

    /// Starts the binary with `environment` (HTTP_PORT and LOG_LEVEL are set here) and waits
    /// until it serves and PostgreSQL answers its readiness check.
    static func start(environment: [String: String], directory: URL, logName: String) async throws -> ServerProcess {
        let logFile = directory.appendingPathComponent(logName)
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        var environment = environment
        environment["HTTP_PORT"] = "0"
        environment["LOG_LEVEL"] = "notice"
        let process = StoreSyncBinary.start(["serve"], environment: environment, directory: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()

        // A liveness bound for start-up (migrations, catalog), not a performance assertion.
        for _ in 0..<240 {
            try await Task.sleep(for: .milliseconds(250))
            guard process.isRunning else { break }
            let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            guard let range = log.range(of: #"serving on http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else {
                continue
            }
            let url = URL(string: String(log[range].dropFirst("serving on ".count)))!
            let server = ServerProcess(process: process, baseURL: url, logFile: logFile)
            if (try? await server.send("GET", "/health/ready").status) == 200 { return server }
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        throw ServerProcessError.didNotStart((try? String(contentsOf: logFile, encoding: .utf8)) ?? "")
    }

    /// SIGKILL: no graceful shutdown, no flushing, requests cut off wherever they are.
    func kill() {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then waits for the graceful shutdown to finish.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Sends a request; many at once share one session with room for all of them.
    func send(_ method: String, _ path: String, token: String? = nil, body: Data? = nil) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: baseURL.appendingPathComponent(path), timeoutInterval: 60)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await Self.session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        return URLSession(configuration: configuration)
    }()
}

enum ServerProcessError: Error, CustomStringConvertible {
    case didNotStart(String)

    var description: String {
        switch self {
        case .didNotStart(let log): "storesync serve did not become ready; its log:\n\(log.suffix(4000))"
        }
    }
}
