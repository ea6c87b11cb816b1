import Configuration
import PostgresLibPQ
@testable import StoreSyncServer
import StoreSyncCore
import Testing

/// `DATABASE_POOL_MODE`, `DATABASE_READ_URL` and `DATABASE_LISTEN_URL`: which connection does what.
@Suite struct DatabaseTopologyTests {
    static let primary = PostgresConfiguration(host: "bouncer.internal", port: 6432, user: "storesync", database: "storesync")

    static func settings(_ values: [AbsoluteConfigKey: ConfigValue]) throws -> ServerConfiguration {
        var all: [AbsoluteConfigKey: ConfigValue] = ["storesync.bundleId": "com.example.storesync", "storesync.environment": "Sandbox"]
        all.merge(values) { _, new in new }
        return try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: all)))
    }

    @Test func directlyOnPostgreSQLTheListenerAndMigrationsUseThePrimary() throws {
        let topology = try Self.settings([:]).database.topology(primary: Self.primary)
        #expect(!topology.primary.usesTransactionPooler)
        #expect(topology.direct == topology.primary)
        #expect(topology.standby == nil)
    }

    @Test func behindATransactionPoolerWithoutAListenURLThereIsNoDirectConnection() throws {
        let topology = try Self.settings(["database.poolMode": "transaction"]).database.topology(primary: Self.primary)
        #expect(topology.primary.usesTransactionPooler)
        #expect(topology.direct == nil, "caches are then checked by polling")
    }

    @Test func theListenURLIsTheDirectConnectionAndTheReadURLThePooledStandby() throws {
        let settings = try Self.settings([
            "database.poolMode": "Transaction",
            "database.listenUrl": "postgres://storesync:secret@db-primary:5432/storesync",
            "database.readUrl": "postgres://storesync:secret@bouncer-standby:6432/storesync",
            "database.readMaxLagMs": "250",
        ])
        let topology = try settings.database.topology(primary: Self.primary)
        #expect(topology.direct?.host == "db-primary")
        #expect(topology.direct?.usesTransactionPooler == false)
        #expect(topology.standby?.host == "bouncer-standby")
        #expect(topology.standby?.usesTransactionPooler == true)
        #expect(settings.databaseReadMaxLagMilliseconds == 250)
    }

    @Test func anUnknownPoolModeIsRefusedByName() {
        #expect(throws: ConfigurationError.invalid(.databasePoolMode, "expected session or transaction, got 'statement'")) {
            try Self.settings(["database.poolMode": "statement"])
        }
    }

    @Test(arguments: [("database.readUrl", Setting.databaseReadURL), ("database.listenUrl", Setting.databaseListenURL)])
    func aURLThatDoesNotParseIsRefusedByName(key: String, setting: Setting) {
        let error = #expect(throws: ConfigurationError.self) {
            try Self.settings([AbsoluteConfigKey(key.split(separator: ".").map(String.init)): "mysql://somewhere/db"])
        }
        #expect(error?.setting == setting)
    }

    /// Behind a transaction pooler only the timeouts are set (in every transaction): a generic
    /// plan would only cost a statement there.
    @Test func aServerBehindATransactionPoolerSetsOnlyItsTimeouts() {
        var pooled = Self.primary
        pooled.usesTransactionPooler = true
        let server = ServerConfiguration(bundleId: "com.example.storesync", environment: .sandbox)
        let timeouts = ["statement_timeout": "30s", "lock_timeout": "10s"]
        #expect(pooled.withServerSessionSettings(server).sessionSettings == timeouts)
        #expect(
            Self.primary.withServerSessionSettings(server).sessionSettings
                == timeouts.merging(["plan_cache_mode": "force_generic_plan"]) { $1 })
    }
}
