import Foundation
public import Logging
public import PostgresLibPQ
public import ServiceLifecycle

/// The PostgreSQL a server (or `storesync migrate`) talks to: the one `DATABASE_URL` names, or
/// — when it is unset — a private cluster under `STORESYNC_DATA_DIR` that this process starts
/// and stops.
///
/// As a `Service` it keeps the database until graceful shutdown and then stops the cluster it
/// started: added first to an application, it stops after every service that uses it.
public struct ServerDatabase: Sendable {
    static let embeddedDatabaseName = "storesync"

    /// Where to connect.
    public let configuration: PostgresConfiguration
    /// Where migrations run: `DATABASE_LISTEN_URL` (a direct connection) when it is set, else
    /// ``configuration``.
    public let migrationConfiguration: PostgresConfiguration
    private let embedded: EmbeddedPostgres?
    private let logger: Logger

    /// Resolves `DATABASE_URL`, or starts the embedded cluster and makes sure its database exists.
    ///
    /// - Parameters:
    ///   - settings: The validated database settings.
    ///   - logger: Receives the embedded cluster's start and stop.
    /// - Returns: The database, running.
    /// - Throws: ``ConfigurationError`` for a `DATABASE_URL` that does not parse,
    ///   ``EmbeddedDatabaseError`` when the embedded cluster does not start, ``PostgresError``
    ///   when its database cannot be created.
    public static func start(for settings: DatabaseSettings, logger: Logger) async throws -> ServerDatabase {
        if let url = settings.url {
            var configuration: PostgresConfiguration
            do {
                configuration = try PostgresConfiguration(url: url)
            } catch {
                throw ConfigurationError.invalid(.databaseURL, "\(error)")
            }
            configuration.usesTransactionPooler = settings.poolMode == .transaction
            return try ServerDatabase(configuration: configuration, embedded: nil, settings: settings, logger: logger)
        }
        let directory = URL(fileURLWithPath: settings.dataDirectory, isDirectory: true)
            .appendingPathComponent("postgres", isDirectory: true)
        let embedded = EmbeddedPostgres(directory: directory, logger: logger)
        do {
            try await embedded.start()
        } catch {
            throw EmbeddedDatabaseError(reason: "\(error)")
        }
        do {
            try await embedded.createDatabase(named: embeddedDatabaseName)
        } catch let error as PostgresError where error.code == .duplicateDatabase {
            // Kept from an earlier run: the data survives restarts.
        }
        var configuration = embedded.configuration
        configuration.database = embeddedDatabaseName
        logger.info("embedded PostgreSQL running", metadata: ["db.directory": "\(directory.path)"])
        return try ServerDatabase(configuration: configuration, embedded: embedded, settings: settings, logger: logger)
    }

    private init(
        configuration: PostgresConfiguration, embedded: EmbeddedPostgres?, settings: DatabaseSettings, logger: Logger
    ) throws {
        self.configuration = configuration
        self.migrationConfiguration = try settings.topology(primary: configuration).direct ?? configuration
        self.embedded = embedded
        self.logger = logger
    }

    /// Stops the embedded cluster, if this process started one; its data is kept.
    public func stop() async {
        guard let embedded else { return }
        do {
            try await embedded.stop()
            logger.info("embedded PostgreSQL stopped")
        } catch {
            logger.error("embedded PostgreSQL did not stop cleanly", metadata: ["error": "\(error)"])
        }
    }
}

extension ServerDatabase: Service {
    /// Waits for graceful shutdown (or cancellation), then stops the embedded cluster.
    public func run() async throws {
        try? await gracefulShutdown()
        await stop()
    }
}
