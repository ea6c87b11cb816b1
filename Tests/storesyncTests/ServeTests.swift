import Foundation
import PostgresLibPQTesting
import StoreSyncTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `storesync serve` with no DATABASE_URL: an embedded cluster under the working directory,
/// ready to answer, and gone again after SIGTERM — what `make run` does.
@Suite struct ServeTests {
    /// A `storesync serve` child on an embedded cluster in `directory`, its log in `log`.
    private struct Served {
        let process: Process
        let port: Int
        let ready: Bool
    }

    /// Starts `storesync serve` in `directory` and waits until `/health/ready` answers 200 (or
    /// the process ends, or a minute passes).
    private static func serve(in directory: URL, log: URL, environment extra: [String: String] = [:]) async throws -> Served {
        // A port nothing listens on: a random one could be a loopback connection's ephemeral
        // port of the moment, or another test's server.
        let port = try FreePort.find()
        try #require(FileManager.default.createFile(atPath: log.path, contents: nil))
        let process = StoreSyncBinary.start(
            ["serve"],
            environment: [
                "STORESYNC_BUNDLE_ID": "com.example.storesync", "STORESYNC_ENVIRONMENT": "Sandbox",
                "HTTP_PORT": String(port), "LOG_LEVEL": "notice",
            ].merging(extra) { $1 },
            directory: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()

        // Creating the embedded cluster takes seconds alone and longer beside the rest of the
        // suite; a minute is the bound, not an expectation.
        var ready = false
        for _ in 0..<240 where !ready && process.isRunning {
            try await Task.sleep(for: .milliseconds(250))
            let url = URL(string: "http://127.0.0.1:\(port)/health/ready")!
            if let (_, response) = try? await URLSession.shared.data(from: url),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                ready = true
            }
        }
        return Served(process: process, port: port, ready: ready)
    }

    @Test func serveRunsOnAnEmbeddedDatabaseAndStopsItOnSigterm() async throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("serve.log")
        let served = try await Self.serve(in: directory, log: log)
        let (process, ready) = (served.process, served.ready)
        let logged = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(ready, "GET /health/ready never answered 200; the server wrote: \(logged.suffix(2_000))")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".storesync/postgres/data/PG_VERSION").path))
        #if os(Linux)
        // The server's threads yield to PostgreSQL (batch, the default); the cluster it started
        // does not inherit that class.
        let serverClasses = SchedulingClass.ofThreads(of: process.processIdentifier)
        #expect(!serverClasses.isEmpty && serverClasses.values.allSatisfy { $0 == SchedulingClass.batch }, "\(serverClasses)")
        let pidFile = directory.appendingPathComponent(".storesync/postgres/data/postmaster.pid")
        let postmasterId = try #require(
            (try? String(contentsOf: pidFile, encoding: .utf8))?.split(separator: "\n").first.flatMap { Int32($0) })
        let cluster = [postmasterId] + SchedulingClass.children(of: postmasterId)
        #expect(cluster.count > 1, "the postmaster and its background processes")
        #expect(cluster.allSatisfy { SchedulingClass.ofProcess($0) == SchedulingClass.normal },
                "\(cluster.map { ($0, SchedulingClass.ofProcess($0) ?? -1) })")
        #endif

        process.terminate()
        let status = await ChildExit.status(of: process, within: .seconds(60))
        if status == nil { kill(process.processIdentifier, SIGKILL) }
        let written = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "the server wrote: \(written.suffix(2_000))")
        #expect(written.contains("shutting down") && written.contains("stopped"), "the stop is told: \(written.suffix(2_000))")
        let postmaster = directory.appendingPathComponent(".storesync/postgres/data/postmaster.pid")
        #expect(!FileManager.default.fileExists(atPath: postmaster.path), "the embedded cluster still runs")
    }

    /// A request whose body never finishes (a client gone quiet mid-upload, or a slow-loris)
    /// does not hold a stop: SIGTERM drains for a bounded time (25 s), then the process ends
    /// as a stop should. The idle timeout is set far beyond, so only the drain's bound can end it.
    @Test func aRequestThatNeverFinishesDoesNotHoldTheStop() async throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("serve.log")
        let served = try await Self.serve(in: directory, log: log, environment: ["HTTP_IDLE_TIMEOUT_SECONDS": "3600"])
        let process = served.process
        guard served.ready else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            Issue.record("the server never became ready: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            return
        }
        let connection = try RawHTTPConnection.open(port: served.port, receiveTimeoutSeconds: 120)
        try connection.transmit(
            "POST /v1/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"email\":")

        process.terminate()
        let status = await ChildExit.status(of: process, within: .seconds(90))
        if status == nil { kill(process.processIdentifier, SIGKILL) }
        let written = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(status != nil, "the stop waited for the request that never finishes: \(written.suffix(2_000))")
        #expect(status == 0, "the server wrote: \(written.suffix(2_000))")
        #expect(written.contains("shutting down") && written.contains("at most 25"), "\(written.suffix(2_000))")
        let postmaster = directory.appendingPathComponent(".storesync/postgres/data/postmaster.pid")
        #expect(!FileManager.default.fileExists(atPath: postmaster.path), "the embedded cluster still runs")
    }
}
