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
    @Test func serveRunsOnAnEmbeddedDatabaseAndStopsItOnSigterm() async throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A port nothing listens on: a random one could be a loopback connection's ephemeral
        // port of the moment, or another test's server.
        let port = try FreePort.find()
        let log = directory.appendingPathComponent("serve.log")
        try #require(FileManager.default.createFile(atPath: log.path, contents: nil))
        let process = StoreSyncBinary.start(
            ["serve"],
            environment: [
                "STORESYNC_BUNDLE_ID": "com.example.storesync", "STORESYNC_ENVIRONMENT": "Sandbox",
                "HTTP_PORT": String(port), "LOG_LEVEL": "notice",
            ],
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
}
