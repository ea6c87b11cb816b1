import Crypto
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct CommandLineTests {
    private let minimal = ["STORESYNC_BUNDLE_ID": "com.example.storesync", "STORESYNC_ENVIRONMENT": "Sandbox"]

    @Test func keygenPrintsAnEd25519KeyPairThatBelongsTogether() throws {
        let outcome = try StoreSyncBinary.run(["keygen"])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n")
        let privateLine = try #require(lines.first { $0.hasPrefix("STORESYNC_SIGNING_KEY=") })
        let privateKey = try Curve25519.Signing.PrivateKey(
            rawRepresentation: try #require(Data(base64Encoded: String(privateLine.dropFirst("STORESYNC_SIGNING_KEY=".count)))))
        #expect(outcome.standardOutput.contains(privateKey.publicKey.rawRepresentation.base64EncodedString()))
    }

    @Test(arguments: [
        ([String: String](), "STORESYNC_ENVIRONMENT"),
        (["STORESYNC_ENVIRONMENT": "Sandbox"], "STORESYNC_BUNDLE_ID"),
        (["STORESYNC_ENVIRONMENT": "Staging", "STORESYNC_BUNDLE_ID": "x"], "STORESYNC_ENVIRONMENT"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "HTTP_PORT": "eighty"], "HTTP_PORT"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_TRANSFER_POLICY": "steal"], "STORESYNC_TRANSFER_POLICY"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "HTTP_EVENT_LOOPS": "0"], "HTTP_EVENT_LOOPS"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_SANDBOX_IN_PRODUCTION": "maybe"], "STORESYNC_SANDBOX_IN_PRODUCTION"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_SESSION_IDLE_SECONDS": "59"], "STORESYNC_SESSION_IDLE_SECONDS"),
        (["STORESYNC_ENVIRONMENT": "Production", "STORESYNC_BUNDLE_ID": "x"], "STORESYNC_APP_APPLE_ID"),
        (["STORESYNC_ENVIRONMENT": "Production", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_APP_APPLE_ID": "12"], "STORESYNC_SIGNING_KEY"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_SIGNING_KEY": "AAAA"], "STORESYNC_SIGNING_KEY"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_ALLOW_UNVERIFIED": "maybe"], "STORESYNC_ALLOW_UNVERIFIED"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_SCHEMA_DIR": "/nonexistent"], "STORESYNC_SCHEMA_DIR"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_TRUSTED_ROOTS": "/nonexistent.pem"], "STORESYNC_TRUSTED_ROOTS"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_CATALOG": "/nonexistent.json"], "STORESYNC_CATALOG"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_WEBHOOK_URL": "https://hooks.example.com/"], "STORESYNC_WEBHOOK_SECRET"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_WEBHOOK_URL": "ftp://hooks.example.com/", "STORESYNC_WEBHOOK_SECRET": "0123456789abcdef"], "STORESYNC_WEBHOOK_URL"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "LOG_FORMAT": "xml"], "LOG_FORMAT"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "HTTP_HOST": "localhost:8080"], "HTTP_HOST"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "METRICS_PORT": "9090", "METRICS_HOST": "http://0.0.0.0"], "METRICS_HOST"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_THREAD_SCHEDULING": "realtime"], "STORESYNC_THREAD_SCHEDULING"),
        (["STORESYNC_ENVIRONMENT": "Sandbox", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_SIGNING_KEY_FILE": "/nonexistent"], "STORESYNC_SIGNING_KEY_FILE"),
    ])
    func aMissingOrInvalidSettingStopsStartUpWithOneLineNamingItAndChangesNothing(
        environment: [String: String], setting: String
    ) throws {
        try expectStartUpRefused(["serve"], environment: environment, naming: setting)
    }

    /// The environment's HTTP_PORT is valid: only the command line's, which wins, is refused.
    @Test(arguments: [
        (["--http-port", "eighty"], "HTTP_PORT"), (["--http-port=eighty"], "HTTP_PORT"),
        (["--storesync-transfer-policy", "steal"], "STORESYNC_TRANSFER_POLICY"), (["--colour", "blue"], "--colour"),
        (["--log-level"], "--log-level"), (["stray"], "stray"), (["--database-url="], "--database-url"),
        (["--database-url", " "], "--database-url"),
    ])
    func aBadSettingOnTheCommandLineStopsStartUpWithOneLineNamingIt(arguments: [String], setting: String) throws {
        try expectStartUpRefused(["serve"] + arguments, environment: minimal.merging(["HTTP_PORT": "8080"]) { $1 }, naming: setting)
    }

    /// A mistyped option is named without its value, which may hold a password.
    @Test func aMistypedOptionIsNamedWithoutItsValue() throws {
        let outcome = try StoreSyncBinary.run(["serve", "--databse-url=postgres://u:hunter2@db/storesync"], environment: minimal)
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--databse-url is not a setting"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("hunter2"))
    }

    private func expectStartUpRefused(_ arguments: [String], environment: [String: String], naming setting: String) throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try StoreSyncBinary.run(arguments, environment: environment, directory: directory)
        #expect(outcome.status == 2)
        let lines = outcome.standardError.split(separator: "\n").filter { $0.hasPrefix("storesync:") }
        #expect(lines.count == 1, "\(outcome.standardError)")
        #expect(lines.first?.contains(setting) == true, "\(outcome.standardError)")
        // Refused before any database was started: no embedded cluster was created.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// Under `LOG_FORMAT=json` (compose's default) a log shipper reads JSON lines: the reason a
    /// start-up was refused is one of them, not a plain line it may drop.
    @Test(arguments: [["serve"], ["migrate", "--database-url", "postgresql://"]])
    func aRefusedStartUpUnderJSONLoggingIsOneJSONLine(arguments: [String]) throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["LOG_FORMAT": "json", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_SCHEMA_DIR": "/nonexistent"]
        let outcome = try StoreSyncBinary.run(arguments, environment: environment, directory: directory)
        #expect(outcome.status == 2)
        let lines = outcome.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(outcome.standardError)")
        let line = try #require(lines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        #expect(object["level"] as? String == "critical")
        #expect(object["exit_code"] as? String == "2")
        let setting = arguments == ["serve"] ? "STORESYNC_ENVIRONMENT" : "STORESYNC_SCHEMA_DIR"
        #expect((object["message"] as? String)?.contains(setting) == true, "\(line)")
    }

    @Test func productionRefusesTheDevelopmentSwitch() throws {
        let key = Curve25519.Signing.PrivateKey().rawRepresentation.base64EncodedString()
        let outcome = try StoreSyncBinary.run(["serve"], environment: [
            "STORESYNC_ENVIRONMENT": "Production", "STORESYNC_BUNDLE_ID": "x", "STORESYNC_APP_APPLE_ID": "12",
            "STORESYNC_SIGNING_KEY": key, "STORESYNC_ALLOW_UNVERIFIED": "true",
        ])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("STORESYNC_ALLOW_UNVERIFIED"))
    }

    @Test func serveHelpListsEverySetting() throws {
        let outcome = try StoreSyncBinary.run(["serve", "--help"])
        #expect(outcome.status == 0)
        for name in [
            "HTTP_HOST", "HTTP_PORT", "DATABASE_URL", "STORESYNC_BUNDLE_ID", "STORESYNC_APP_APPLE_ID", "STORESYNC_ENVIRONMENT",
            "STORESYNC_TRUSTED_ROOTS", "STORESYNC_ADMIN_API_KEY", "STORESYNC_SIGNING_KEY", "STORESYNC_TRANSFER_POLICY",
            "STORESYNC_VERIFY_RECEIPT_URL", "STORESYNC_VERIFY_RECEIPT_SANDBOX_URL", "STORESYNC_SHARED_SECRET",
            "STORESYNC_CATALOG", "STORESYNC_OFFLINE_GRACE_SECONDS", "STORESYNC_ALLOW_UNVERIFIED",
            "STORESYNC_SANDBOX_IN_PRODUCTION", "STORESYNC_SESSION_IDLE_SECONDS",
        ] {
            #expect(outcome.standardOutput.contains(name), "\(name) is not listed")
        }
    }

    @Test func migrateOnTheEmbeddedDatabaseAppliesOnceThenReportsUpToDate() throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try StoreSyncBinary.run(["migrate"], environment: minimal, directory: directory)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("applied 0001_init"))
        let second = try StoreSyncBinary.run(["migrate"], environment: minimal, directory: directory)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardOutput.contains("up to date"))
    }

    /// A standard error that fails every write (a log pipe whose reader went away, a full
    /// disk) loses the log lines, never the process: JSON logs, start-up and health lines.
    @Test func aStandardErrorThatFailsEveryWriteEndsNothing() throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let migrate = try StoreSyncBinary.run(
            ["migrate"], environment: minimal.merging(["LOG_FORMAT": "json", "LOG_LEVEL": "debug"]) { $1 },
            directory: directory, standardError: "/dev/full")
        #expect(migrate.status == 0)
        #expect(migrate.standardOutput.contains("applied 0001_init"))

        let refused = try StoreSyncBinary.run(
            ["serve"], environment: ["LOG_FORMAT": "json"], directory: directory, standardError: "/dev/full")
        #expect(refused.status == 2, "a missing setting still ends start-up as refused, not as a crash")
        let unready = try StoreSyncBinary.run(["health", "--http-port", "1"], standardError: "/dev/full")
        #expect(unready.status == 1)
    }

    /// A migration job is given the database and nothing else: no App Store identity, no
    /// signing key, even where `serve` would demand them (Production).
    @Test(arguments: [[:], ["STORESYNC_ENVIRONMENT": "Production"]])
    func migrateNeedsOnlyTheDatabaseSettings(environment: [String: String]) throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try StoreSyncBinary.run(["migrate"], environment: environment, directory: directory)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("applied 0001_init"))
    }

    /// Run as root from a checkout in a closed home directory (`/root` is 0700), the embedded
    /// cluster is kept where PostgreSQL, run as `postgres`, can reach it, and found there again.
    @Test(.enabled(if: geteuid() == 0, "only a root process runs PostgreSQL as another account"))
    func migrateAsRootFromAClosedHomeDirectoryWorks() throws {
        let home = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: home.path)
        let checkout = home.appendingPathComponent("checkout-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)

        let first = try StoreSyncBinary.run(["migrate"], environment: [:], directory: checkout)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("applied 0001_init"))
        let second = try StoreSyncBinary.run(["migrate"], environment: [:], directory: checkout)
        #expect(second.standardOutput.contains("up to date"), "\(second.standardError)")

        let kept = try FileManager.default.contentsOfDirectory(atPath: "/var/lib/storesync")
            .filter { $0.hasPrefix(checkout.lastPathComponent + "-") }
        #expect(kept.count == 1)
        for name in kept { try? FileManager.default.removeItem(atPath: "/var/lib/storesync/" + name) }
        #expect(!FileManager.default.fileExists(atPath: checkout.appendingPathComponent(".storesync/postgres/data").path))
    }

    /// The settings migrate does read are checked as strictly as serve checks them.
    @Test(arguments: [
        (["DATABASE_POOL_MODE": "statement"], "DATABASE_POOL_MODE"), (["LOG_LEVEL": "loud"], "LOG_LEVEL"),
        (["DATABASE_LISTEN_URL": "mysql://somewhere/db"], "DATABASE_LISTEN_URL"),
    ])
    func migrateRefusesABadDatabaseSettingByName(environment: [String: String], setting: String) throws {
        try expectStartUpRefused(["migrate"], environment: environment, naming: setting)
    }

    /// A `Schema/` in the working directory is someone's files, not the server's migrations:
    /// only STORESYNC_SCHEMA_DIR or the bundled ones are run (adversarial review, finding 11).
    @Test func migrateNeverRunsASchemaDirectoryFoundInTheWorkingDirectory() throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let planted = directory.appendingPathComponent("Schema")
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: true)
        try Data("CREATE TABLE planted (x int);\n".utf8).write(to: planted.appendingPathComponent("0001_planted.sql"))
        let outcome = try StoreSyncBinary.run(["migrate"], environment: minimal, directory: directory)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("applied 0001_init"))
        #expect(!outcome.standardOutput.contains("planted"))
    }

    /// A database that cannot be reached is named with libpq's own reason, not a bare code.
    @Test func migrateAgainstADatabaseThatRefusesSaysWhy() throws {
        let directory = try StoreSyncBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = minimal
        // A port nothing listens on (the discard port, never served here).
        environment["DATABASE_URL"] = "postgres://storesync@127.0.0.1:9/storesync?sslmode=disable&connect_timeout=5"
        let outcome = try StoreSyncBinary.run(["migrate"], environment: environment, directory: directory)
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("refused"), "\(outcome.standardError)")
    }
}
