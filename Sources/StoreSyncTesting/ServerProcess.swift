import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import PostgresLibPQTesting
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `storesync serve` child process on 127.0.0.1: the real binary, configured only through
/// its environment, its output in a log file. The demo and `make bench` run the server this
/// way, as an operator would.
public final class ServerProcess: @unchecked Sendable {  // `Process` is only read after launch, and signals are thread-safe.
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// Where the server's standard output and error go.
    public let logFile: URL
    private let process: Process

    private init(baseURL: URL, logFile: URL, process: Process) {
        self.baseURL = baseURL
        self.logFile = logFile
        self.process = process
    }

    /// The server's process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Whether the process still runs.
    public var isRunning: Bool { process.isRunning }

    /// Starts `executable serve` and waits until `/health/ready` answers 200.
    ///
    /// - Parameters:
    ///   - executable: The `storesync` binary.
    ///   - port: The port it listens on (`HTTP_PORT`).
    ///   - settings: Environment variables for the server; they replace inherited ones.
    ///     `DATABASE_URL` is removed from the inherited environment, so without it in
    ///     `settings` the server runs its embedded PostgreSQL.
    ///   - logFile: Receives the server's output (created or truncated).
    ///   - readyWithin: How long start-up may take (the first start initialises a cluster).
    /// - Returns: The running server.
    /// - Throws: ``ServerProcessError`` when the binary is missing, exits, or is not ready in time.
    public static func start(
        executable: URL, port: Int, settings: [String: String], logFile: URL, readyWithin: Duration = .seconds(120)
    ) async throws -> ServerProcess {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw ServerProcessError("\(executable.path) is not an executable; build it with `swift build --product storesync`")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = nil
        environment.merge(settings) { _, given in given }
        environment["HTTP_HOST"] = "127.0.0.1"
        environment["HTTP_PORT"] = String(port)

        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve"]
        process.environment = environment
        process.standardOutput = log
        process.standardError = log
        try process.run()

        let server = ServerProcess(baseURL: URL(string: "http://127.0.0.1:\(port)")!, logFile: logFile, process: process)
        do {
            try await server.waitUntilReady(within: readyWithin)
        } catch {
            server.kill()
            throw error
        }
        return server
    }

    private func waitUntilReady(within limit: Duration) async throws {
        let deadline = ContinuousClock.now + limit
        let ready = baseURL.absoluteString + "/health/ready"
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                throw ServerProcessError("storesync serve exited with status \(process.terminationStatus):\n\(logTail())")
            }
            if let response = try? await TestHTTPClient.shared.execute(HTTPClientRequest(url: ready), timeout: .seconds(2)),
                response.status.code == 200
            {
                return
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw ServerProcessError("storesync serve was not ready within \(limit):\n\(logTail())")
    }

    /// SIGTERM, then up to 30 s for a graceful stop (the embedded PostgreSQL stops with it);
    /// SIGKILL after that.
    public func stop() async {
        guard process.isRunning else { return }
        process.terminate()
        if await ChildExit.status(of: process, within: .seconds(30)) == nil { kill() }
    }

    /// SIGKILL: no graceful anything, as a crash or an OOM killer would.
    public func kill() {
        guard process.isRunning else { return }
        #if canImport(Glibc)
        Glibc.kill(process.processIdentifier, SIGKILL)
        #elseif canImport(Darwin)
        Darwin.kill(process.processIdentifier, SIGKILL)
        #endif
        _ = ChildExit.wait(for: process)
    }

    /// The last lines of the server's log, for error messages.
    ///
    /// - Parameter lines: How many lines.
    /// - Returns: The log's tail.
    public func logTail(lines: Int = 30) -> String {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

/// Why a server process did not start.
public struct ServerProcessError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
