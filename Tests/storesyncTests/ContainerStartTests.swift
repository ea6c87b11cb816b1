import Foundation
import StoreSyncAPI
import StoreSyncTesting
import Testing

/// What the container does on `docker compose up`, run here with the real binary: `keygen
/// --into` makes the keys once, `serve` reads them from their files with the example catalog
/// and `/metrics` on its own port, and `storesync health` (the healthcheck) says whether it is
/// ready. Docker itself is not run; `scripts/check-deploy.sh` checks the compose file names
/// exactly these commands, files and settings.
@Suite struct ContainerStartTests {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func keygenIntoMakesEachKeyOnceAndShowsItOnce() throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = directory.appendingPathComponent("keys")

        let first = try StoreSyncBinary.run(["keygen", "--into", keys.path])
        #expect(first.status == 0, "\(first.standardError)")
        let adminKey = try String(contentsOf: keys.appendingPathComponent("admin-api-key"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let signingKey = try String(contentsOf: keys.appendingPathComponent("signing-key"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(adminKey.count >= 32)
        #expect(Data(base64Encoded: signingKey)?.count == 32)
        #expect(!first.standardOutput.contains(adminKey), "the admin key stays in its file, out of every log")
        #expect(first.standardOutput.contains(keys.appendingPathComponent("admin-api-key").path))
        #expect(!first.standardOutput.contains(signingKey), "the signing private key stays in its file")
        for name in ["admin-api-key", "signing-key"] {
            let permissions = try FileManager.default.attributesOfItem(atPath: keys.appendingPathComponent(name).path)[.posixPermissions]
            #expect((permissions as? NSNumber)?.intValue == 0o600, "\(name) is readable by its owner only")
        }

        let again = try StoreSyncBinary.run(["keygen", "--into", keys.path])
        #expect(again.status == 0)
        #expect(again.standardOutput.components(separatedBy: "kept").count == 3)
        #expect(try String(contentsOf: keys.appendingPathComponent("admin-api-key"), encoding: .utf8).contains(adminKey))
        #expect(try FileManager.default.contentsOfDirectory(atPath: keys.path).sorted() == ["admin-api-key", "signing-key"])

        // A run killed between writing and linking left its temporary file (process 1, as in
        // every container): the next run still makes the key.
        let interrupted = directory.appendingPathComponent("interrupted")
        try FileManager.default.createDirectory(at: interrupted, withIntermediateDirectories: true)
        for leftover in [".signing-key.1.tmp", ".admin-api-key.1.tmp"] {
            try Data("half".utf8).write(to: interrupted.appendingPathComponent(leftover))
        }
        let afterKill = try StoreSyncBinary.run(["keygen", "--into", interrupted.path])
        #expect(afterKill.status == 0, "\(afterKill.standardError)")
        #expect(FileManager.default.fileExists(atPath: interrupted.appendingPathComponent("signing-key").path))
        #expect(FileManager.default.fileExists(atPath: interrupted.appendingPathComponent("admin-api-key").path))

        let other = directory.appendingPathComponent("other")
        let given = try StoreSyncBinary.run(
            ["keygen", "--into", other.path], environment: ["STORESYNC_ADMIN_API_KEY": "an-admin-key-from-the-environment"])
        #expect(given.status == 0)
        #expect(given.standardOutput.contains("taken from the environment"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path) == ["signing-key"])
    }

    @Test func theHealthcheckPassesOnceAServerFromKeptKeysIsReadyAndFailsOnceItStops() async throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = directory.appendingPathComponent("keys")
        let made = try StoreSyncBinary.run(["keygen", "--into", keys.path])
        let publicKey = try #require(made.standardOutput.split(separator: "\n")
            .first { $0.contains("public key") }?.split(separator: " ").last.map(String.init))
        let adminKey = try String(contentsOf: keys.appendingPathComponent("admin-api-key"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let (port, metricsPort) = (try FreePort.find(), try FreePort.find())
        let server = try await ServerProcess.start(
            executable: StoreSyncBinary.url, port: port,
            settings: [
                "STORESYNC_BUNDLE_ID": "com.example.storesync", "STORESYNC_ENVIRONMENT": "Sandbox",
                "STORESYNC_DATA_DIR": directory.appendingPathComponent("data").path,
                "STORESYNC_SIGNING_KEY_FILE": keys.appendingPathComponent("signing-key").path,
                "STORESYNC_ADMIN_API_KEY_FILE": keys.appendingPathComponent("admin-api-key").path,
                "STORESYNC_CATALOG": Self.repository.appendingPathComponent("examples/catalog.json").path,
                "METRICS_HOST": "127.0.0.1", "METRICS_PORT": String(metricsPort), "LOG_LEVEL": "warning",
            ],
            logFile: directory.appendingPathComponent("serve.log"))
        let probe = ["HTTP_HOST": "0.0.0.0", "HTTP_PORT": String(port)]
        do {
            let healthy = try StoreSyncBinary.run(["health"], environment: probe)
            #expect(healthy.status == 0, "\(healthy.standardError)")
            let signingKey = try await server.send("GET", "/v1/signing-key").decode(SigningKeyResponse.self)
            #expect(signingKey.publicKey == publicKey, "the server signs with the kept key")
            #expect(try await server.send("GET", "/v1/admin/webhooks/deliveries?state=failed", token: adminKey).status == 200)
            let catalog = try await server.send("GET", "/v1/catalog").decode(CatalogResponse.self)
            #expect(catalog.products.count == 5, "the example catalog is loaded")
            #expect(try await server.send("GET", "/metrics").status == 404, "/metrics is not on the API port")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        let stopped = try StoreSyncBinary.run(["health", "--timeout", "2"], environment: probe)
        #expect(stopped.status == 1)
        #expect(stopped.standardError.hasPrefix("storesync: not ready"))
    }

    @Test func theHealthcheckFailsWhenNothingListensAndStopsOnABadSetting() throws {
        let nothing = try StoreSyncBinary.run(["health", "--timeout", "2"], environment: ["HTTP_PORT": String(try FreePort.find())])
        #expect(nothing.status == 1)
        let bad = try StoreSyncBinary.run(["health"], environment: ["HTTP_PORT": "eighty"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("HTTP_PORT"))
    }

    @Test func jsonLogLinesCarryTheRequestIdOfEveryLoggerThatHandledTheRequest() async throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("serve.log")
        let server = try await ServerProcess.start(
            executable: StoreSyncBinary.url, port: try FreePort.find(),
            settings: [
                "STORESYNC_BUNDLE_ID": "com.example.storesync", "STORESYNC_ENVIRONMENT": "Sandbox",
                "STORESYNC_DATA_DIR": directory.appendingPathComponent("data").path,
                "LOG_FORMAT": "json", "LOG_LEVEL": "trace",
            ],
            logFile: log)
        let requestId: String?
        do {
            let response = try await server.send(
                "POST", "/v1/accounts",
                json: Credentials(email: "ada@example.com", password: TestServer.password, deviceName: "iPhone"))
            #expect(response.status == 201)
            requestId = response.header("X-Request-Id")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()

        let id = try #require(requestId)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 10)
        var ofRequest: [[String: Any]] = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            for field in ["timestamp", "level", "label", "message"] { #expect(object[field] is String, "\(field) in \(line)") }
            if object["hb.request.id"] as? String == id { ofRequest.append(object) }
        }
        #expect(ofRequest.contains { $0["message"] as? String == "query" && $0["db.statement"] != nil },
                "the connection pool's lines during the request carry its id")
        #expect(Set(ofRequest.compactMap { $0["message"] as? String }).count > 1)
    }
}
