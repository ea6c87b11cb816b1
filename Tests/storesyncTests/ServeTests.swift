import Foundation
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
        let port = Int.random(in: 20_000...40_000)
        let process = StoreSyncBinary.start(
            ["serve"],
            environment: [
                "STORESYNC_BUNDLE_ID": "com.example.storesync", "STORESYNC_ENVIRONMENT": "Sandbox",
                "HTTP_PORT": String(port), "LOG_LEVEL": "warning",
            ],
            directory: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()

        var ready = false
        for _ in 0..<120 where !ready {
            try await Task.sleep(for: .milliseconds(250))
            let url = URL(string: "http://127.0.0.1:\(port)/health/ready")!
            if let (_, response) = try? await URLSession.shared.data(from: url),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                ready = true
            }
        }
        #expect(ready, "GET /health/ready never answered 200")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".storesync/postgres/data/PG_VERSION").path))

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let postmaster = directory.appendingPathComponent(".storesync/postgres/data/postmaster.pid")
        #expect(!FileManager.default.fileExists(atPath: postmaster.path), "the embedded cluster still runs")
    }
}
