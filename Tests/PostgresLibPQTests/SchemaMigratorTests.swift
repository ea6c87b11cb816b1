import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import Testing

@Suite struct SchemaMigratorTests {
    /// A temporary migrations directory with the given files.
    private func directory(_ files: [String: String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, sql) in files {
            try Data(sql.utf8).write(to: url.appendingPathComponent(name))
        }
        return url
    }

    private let files = [
        "0001_create.sql": "CREATE TABLE items (id integer PRIMARY KEY);",
        "0002_seed.sql": "INSERT INTO items VALUES (1); INSERT INTO items VALUES (2);",
        "0010_more.sql": "ALTER TABLE items ADD COLUMN label text;",
        "README.md": "not a migration",
    ]

    @Test func migrationsApplyInOrderAndOnlyOnce() async throws {
        let migrations = try directory(files)
        defer { try? FileManager.default.removeItem(at: migrations) }
        try await TestCluster.withPool { pool in
            let migrator = SchemaMigrator(directory: migrations, logger: TestCluster.logger)
            #expect(try await migrator.migrate(pool) == ["0001_create", "0002_seed", "0010_more"])
            #expect(try await migrator.migrate(pool) == [])
            let (items, recorded) = try await pool.withConnection { connection in
                let items = try #require(try await connection.query("SELECT count(*) FROM items").first).decode(Int.self)
                let recorded = try await connection.query("SELECT name FROM schema_migrations ORDER BY name").map { try $0.decode(String.self) }
                return (items, recorded)
            }
            #expect(items == 2)
            #expect(recorded == ["0001_create", "0002_seed", "0010_more"])
        }
    }

    /// A migration may run longer than the pool's statement timeout allows an ordinary
    /// statement; the connection goes back to the pool with its timeouts as they were.
    @Test func migrationsRunWithoutTimeoutsAndLeaveTheConnectionsOwn() async throws {
        let migrations = try directory(["0001_slow.sql": "SELECT pg_sleep(1.5); CREATE TABLE slow (id integer);"])
        defer { try? FileManager.default.removeItem(at: migrations) }
        var configuration = try await TestCluster.makeDatabase()
        configuration.sessionSettings = ["statement_timeout": "1s", "lock_timeout": "2s"]
        let pool = ConnectionPool(configuration: configuration, size: 1, logger: TestCluster.logger)
        defer { Task { await pool.shutdown() } }
        #expect(try await SchemaMigrator(directory: migrations, logger: TestCluster.logger).migrate(pool) == ["0001_slow"])
        let settings = try await pool.withConnection { connection in
            try #require(try await connection.query("SELECT current_setting('statement_timeout'), current_setting('lock_timeout')").first)
                .decode((String, String).self)
        }
        #expect(settings.0 == "1s")
        #expect(settings.1 == "2s")
    }

    @Test func newMigrationIsAppliedOnTheNextRun() async throws {
        let migrations = try directory(["0001_create.sql": files["0001_create.sql"]!])
        defer { try? FileManager.default.removeItem(at: migrations) }
        try await TestCluster.withPool { pool in
            let migrator = SchemaMigrator(directory: migrations, logger: TestCluster.logger)
            #expect(try await migrator.migrate(pool) == ["0001_create"])
            try Data("INSERT INTO items VALUES (7);".utf8).write(to: migrations.appendingPathComponent("0002_seven.sql"))
            #expect(try await migrator.migrate(pool) == ["0002_seven"])
        }
    }

    @Test func editedAppliedMigrationIsRefusedByName() async throws {
        let migrations = try directory(files)
        defer { try? FileManager.default.removeItem(at: migrations) }
        try await TestCluster.withPool { pool in
            let migrator = SchemaMigrator(directory: migrations, logger: TestCluster.logger)
            try await migrator.migrate(pool)
            try Data("INSERT INTO items VALUES (1), (2), (3);".utf8).write(to: migrations.appendingPathComponent("0002_seed.sql"))
            let error = try await #require(throws: SchemaMigrationError.self) { try await migrator.migrate(pool) }
            guard case .checksumMismatch(let name, _, _) = error else {
                Issue.record("expected a checksum mismatch, got \(error)")
                return
            }
            #expect(name == "0002_seed")
            #expect(error.description.contains("0002_seed"))
        }
    }

    @Test func mendedCommentsKeepAnAppliedMigrationValid() async throws {
        let migrations = try directory(["0001_create.sql": "-- items\nCREATE TABLE items (id integer PRIMARY KEY);"])
        defer { try? FileManager.default.removeItem(at: migrations) }
        try await TestCluster.withPool { pool in
            let migrator = SchemaMigrator(directory: migrations, logger: TestCluster.logger)
            try await migrator.migrate(pool)
            let mended = "-- The items, one per id.\nCREATE TABLE items (id integer\n    PRIMARY KEY);  -- keyed by id\n"
            try Data(mended.utf8).write(to: migrations.appendingPathComponent("0001_create.sql"))
            #expect(try await migrator.migrate(pool) == [])
        }
    }

    @Test func aChecksumOfTheWholeFileIsAcceptedOnceAndReplaced() async throws {
        let migrations = try directory(files)
        defer { try? FileManager.default.removeItem(at: migrations) }
        try await TestCluster.withPool { pool in
            let migrator = SchemaMigrator(directory: migrations, logger: TestCluster.logger)
            try await migrator.migrate(pool)
            let seed = try #require(try migrator.migrations().first { $0.name == "0002_seed" })
            // A database migrated when checksums covered the file's bytes.
            try await pool.withConnection { connection in
                try await connection.execute(
                    "UPDATE schema_migrations SET checksum = \(seed.fileChecksum) WHERE name = \(seed.name)")
            }
            #expect(try await migrator.migrate(pool) == [])
            let recorded = try await pool.withConnection { connection in
                try #require(try await connection.query(
                    "SELECT checksum FROM schema_migrations WHERE name = \(seed.name)").first).decode(String.self)
            }
            #expect(recorded == seed.checksum)
        }
    }

    @Test func aFileMendedAfterAnEarlierReleaseNamesTheChecksumItWasAppliedUnder() async throws {
        let original = "-- items (wrong comment)\nCREATE TABLE items (id integer PRIMARY KEY);\n"
        let migrations = try directory(["0001_create.sql": original])
        defer { try? FileManager.default.removeItem(at: migrations) }
        try await TestCluster.withPool { pool in
            let migrator = SchemaMigrator(directory: migrations, logger: TestCluster.logger)
            try await migrator.migrate(pool)
            let applied = try #require(try migrator.migrations().first)
            // An earlier release recorded the checksum of the whole file.
            try await pool.withConnection { connection in
                try await connection.execute("UPDATE schema_migrations SET checksum = \(applied.fileChecksum)")
            }
            let mended = "-- items, one per id\nCREATE TABLE items (id integer PRIMARY KEY);\n"
                + "-- applied-as-file-sha256: \(applied.fileChecksum)\n"
            try Data(mended.utf8).write(to: migrations.appendingPathComponent("0001_create.sql"))
            #expect(try await migrator.migrate(pool) == [])

            try await pool.withConnection { connection in
                try await connection.execute("UPDATE schema_migrations SET checksum = \(String(repeating: "0", count: 64))")
            }
            await #expect(throws: SchemaMigrationError.self) { try await migrator.migrate(pool) }
        }
    }

    /// A rolling deploy: a newer build applied a migration this build has no file for. Unless
    /// that migration says older builds keep working, this build refuses to migrate (and so to
    /// start), and a running one learns it must stop.
    @Test func aMigrationOfANewerBuildStopsThisBuildUnlessMarkedCompatible() async throws {
        let older = try directory(["0001_create.sql": files["0001_create.sql"]!])
        let newer = try directory([
            "0001_create.sql": files["0001_create.sql"]!, "0002_label.sql": "ALTER TABLE items ADD COLUMN label text;",
        ])
        defer {
            try? FileManager.default.removeItem(at: older)
            try? FileManager.default.removeItem(at: newer)
        }
        try await TestCluster.withPool { pool in
            let olderBuild = SchemaMigrator(directory: older, logger: TestCluster.logger)
            let newerBuild = SchemaMigrator(directory: newer, logger: TestCluster.logger)
            #expect(try await olderBuild.migrate(pool) == ["0001_create"])
            #expect(try await olderBuild.migrationsThisBuildCannotRunOn(pool) == [])

            // Unmarked: older builds must stop.
            #expect(try await newerBuild.migrate(pool) == ["0002_label"])
            #expect(try await olderBuild.migrationsThisBuildCannotRunOn(pool) == ["0002_label"])
            #expect(try await newerBuild.migrationsThisBuildCannotRunOn(pool) == [])
            try await expectRefused(olderBuild, on: pool, naming: ["0002_label"])

            // Its marker mended in (a comment: the statements are the same), the record follows.
            try Data("-- older-binaries: compatible\nALTER TABLE items ADD COLUMN label text;".utf8)
                .write(to: newer.appendingPathComponent("0002_label.sql"))
            #expect(try await newerBuild.migrate(pool) == [])
            #expect(try await olderBuild.migrationsThisBuildCannotRunOn(pool) == [])
            #expect(try await olderBuild.migrate(pool) == [], "every newer migration keeps older builds working")

            try Data("ALTER TABLE items RENAME COLUMN id TO item_id;".utf8).write(to: newer.appendingPathComponent("0003_rename.sql"))
            #expect(try await newerBuild.migrate(pool) == ["0003_rename"])
            #expect(try await olderBuild.migrationsThisBuildCannotRunOn(pool) == ["0003_rename"])
            try await expectRefused(olderBuild, on: pool, naming: ["0003_rename"])
        }
    }

    private func expectRefused(_ migrator: SchemaMigrator, on pool: ConnectionPool, naming names: [String]) async throws {
        let error = await #expect(throws: SchemaMigrationError.self) { try await migrator.migrate(pool) }
        guard case .databaseNewerThanBinary(let refused)? = error else {
            Issue.record("expected the database to be newer than the build, got \(String(describing: error))")
            return
        }
        #expect(refused == names)
        #expect(error?.description.contains(names[0]) == true)
    }

    /// A migration that needs a table a long transaction reads waits a bounded time for it per
    /// attempt (traffic queued behind it goes on in between), tries again, and fails naming
    /// the lock once every attempt waited in vain; the reader gone, it applies.
    @Test func aMigrationWaitsForALockABoundedTimeTriesAgainAndAppliesOnceItIsFree() async throws {
        let migrations = try directory(["0001_create.sql": files["0001_create.sql"]!])
        defer { try? FileManager.default.removeItem(at: migrations) }
        try await TestCluster.withPool { pool in
            var migrator = SchemaMigrator(directory: migrations, logger: TestCluster.logger)
            (migrator.lockTimeout, migrator.lockAttempts, migrator.lockRetryDelay) = (.milliseconds(100), 3, .milliseconds(20))
            try await migrator.migrate(pool)
            try Data("ALTER TABLE items ADD COLUMN label text;".utf8).write(to: migrations.appendingPathComponent("0002_label.sql"))

            try await pool.withTransaction { reader in
                _ = try await reader.query("SELECT count(*) FROM items")  // holds ACCESS SHARE until it ends
                let error = await #expect(throws: SchemaMigrationError.self) { try await migrator.migrate(pool) }
                guard case .migrationFailed(let name, let underlying)? = error else {
                    Issue.record("expected the migration to fail for its lock, got \(String(describing: error))")
                    return
                }
                #expect(name == "0002_label")
                #expect(underlying.code == .lockNotAvailable)
                #expect(error?.description.contains("end long transactions") == true)
            }
            #expect(try await migrator.migrate(pool) == ["0002_label"])
        }
    }

    @Test func failedMigrationIsRolledBackAndNamed() async throws {
        let migrations = try directory([
            "0001_create.sql": files["0001_create.sql"]!,
            "0002_broken.sql": "INSERT INTO items VALUES (1); INSERT INTO nowhere VALUES (1);",
        ])
        defer { try? FileManager.default.removeItem(at: migrations) }
        try await TestCluster.withPool { pool in
            let error = try await #require(throws: SchemaMigrationError.self) {
                try await SchemaMigrator(directory: migrations, logger: TestCluster.logger).migrate(pool)
            }
            guard case .migrationFailed(let name, let underlying) = error else {
                Issue.record("expected a failed migration, got \(error)")
                return
            }
            #expect(name == "0002_broken")
            #expect(underlying.code == .undefinedTable)
            let (items, recorded) = try await pool.withConnection { connection in
                let items = try #require(try await connection.query("SELECT count(*) FROM items").first).decode(Int.self)
                let recorded = try await connection.query("SELECT name FROM schema_migrations").map { try $0.decode(String.self) }
                return (items, recorded)
            }
            #expect(items == 0)
            #expect(recorded == ["0001_create"])
        }
    }

    @Test func concurrentMigratorsTakeTurnsAndApplyEachMigrationOnce() async throws {
        let migrations = try directory([
            "0001_create.sql": files["0001_create.sql"]!,
            "0002_slow.sql": "SELECT pg_sleep(0.2); INSERT INTO items VALUES (1);",
        ])
        defer { try? FileManager.default.removeItem(at: migrations) }
        let configuration = try await TestCluster.makeDatabase()
        let pools = (0..<3).map { _ in ConnectionPool(configuration: configuration, size: 1, logger: TestCluster.logger) }
        let applied = try await withThrowingTaskGroup(of: [String].self) { group in
            for pool in pools {
                group.addTask { try await SchemaMigrator(directory: migrations, logger: TestCluster.logger).migrate(pool) }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let items = try await pools[0].withConnection { try #require(try await $0.query("SELECT count(*) FROM items").first).decode(Int.self) }
        for pool in pools { await pool.shutdown() }
        #expect(applied.sorted() == ["0001_create", "0002_slow"])
        #expect(items == 1)
    }

    @Test(arguments: ["0002-dash.sql", "init.sql", "0003_.sql", "0004_spaces here.sql"])
    func badlyNamedSQLFileIsRejected(fileName: String) throws {
        let migrations = try directory(["0001_create.sql": "SELECT 1;", fileName: "SELECT 1;"])
        defer { try? FileManager.default.removeItem(at: migrations) }
        #expect(throws: SchemaMigrationError.self) {
            try SchemaMigrator(directory: migrations, logger: TestCluster.logger).migrations()
        }
    }

    /// A `COMMIT` in a script would make its first half permanent and run the rest, and the
    /// record, outside any transaction: such a directory is refused before anything runs.
    @Test func aMigrationThatCommitsItselfIsRefusedBeforeAnythingRuns() async throws {
        let migrations = try directory([
            "0001_create.sql": files["0001_create.sql"]!,
            "0002_halves.sql": "INSERT INTO items VALUES (1);\nCOMMIT;\nINSERT INTO items VALUES (2);",
        ])
        defer { try? FileManager.default.removeItem(at: migrations) }
        try await TestCluster.withPool { pool in
            let migrator = SchemaMigrator(directory: migrations, logger: TestCluster.logger)
            await #expect {
                try await migrator.migrate(pool)
            } throws: { error in
                "\(error)" == "migration 0002_halves contains COMMIT: each migration runs in one transaction with its record, "
                    + "so a script must not begin, commit or roll back one itself"
            }
            let items = try await pool.withConnection { connection in
                try await connection.query("SELECT to_regclass('items') IS NOT NULL").first?.decode(Bool.self)
            }
            #expect(items == false, "not even the first migration ran")
        }
    }

    @Test func duplicateVersionIsRejected() throws {
        let migrations = try directory(["0001_a.sql": "SELECT 1;", "0001_b.sql": "SELECT 2;"])
        defer { try? FileManager.default.removeItem(at: migrations) }
        #expect(throws: SchemaMigrationError.self) {
            try SchemaMigrator(directory: migrations, logger: TestCluster.logger).migrations()
        }
    }

    @Test func repositorySchemaAppliesCleanly() async throws {
        let schema = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Schema")
        try await TestCluster.withPool { pool in
            let migrator = SchemaMigrator(directory: schema, logger: TestCluster.logger)
            let applied = try await migrator.migrate(pool)
            #expect(applied.first == "0001_init")
            #expect(try await migrator.migrate(pool) == [])
            let tables = try await pool.withConnection { connection in
                try await connection.query("SELECT tablename::text FROM pg_tables WHERE schemaname = 'public'").map { try $0.decode(String.self) }
            }
            #expect(tables.contains("accounts"))
            #expect(tables.contains("schema_migrations"))

            // A database an earlier release migrated, when checksums covered whole files, is
            // still valid after the files' comments were mended.
            let mended = try migrator.migrations().filter { !$0.earlierFileChecksums.isEmpty }
            #expect(mended.map(\.name) == ["0003_signed_payload_storage", "0004_signed_transaction_digest"])
            try await pool.withConnection { connection in
                for migration in mended {
                    try await connection.execute("""
                        UPDATE schema_migrations SET checksum = \(migration.earlierFileChecksums[0])
                        WHERE name = \(migration.name)
                        """)
                }
            }
            #expect(try await migrator.migrate(pool) == [])
        }
    }
}
