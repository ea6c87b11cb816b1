import Crypto
import Foundation
import StoreSyncCore
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
        let directory = embeddedClusterDirectory(configured: settings.dataDirectory, logger: logger)
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

    /// Where the embedded cluster lives: under `STORESYNC_DATA_DIR` when it is set; else
    /// under `.storesync` in the working directory — unless this process is root and
    /// PostgreSQL, which then runs as an unprivileged account, could not enter that (a checkout
    /// in `/root`, which is 0700): then in a directory of that checkout's own under
    /// `/var/lib/storesync`, said in the log. A directory the operator chose is never replaced:
    /// if it cannot be reached, starting says so.
    static func embeddedClusterDirectory(
        configured: String?, logger: Logger,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
        fallbackRoot: URL = URL(fileURLWithPath: "/var/lib/storesync", isDirectory: true)
    ) -> URL {
        let cluster = { (data: URL) in data.appendingPathComponent("postgres", isDirectory: true) }
        if let configured {
            let absolute = configured.hasPrefix("/")
                ? URL(fileURLWithPath: configured, isDirectory: true)
                : workingDirectory.appendingPathComponent(configured, isDirectory: true)
            return cluster(absolute.standardizedFileURL)
        }
        let local = workingDirectory.appendingPathComponent(".storesync", isDirectory: true).standardizedFileURL
        guard let blocked = EmbeddedPostgres.blockedAncestor(of: cluster(local)) else { return cluster(local) }
        // One directory per checkout: the name says whose, the digest of the path keeps two apart.
        let checkout = local.deletingLastPathComponent()
        let digest = SHA256.hash(data: Data(local.path.utf8)).prefix(6).hexString
        let data = fallbackRoot.appendingPathComponent("\(checkout.lastPathComponent)-\(digest)", isDirectory: true)
        logger.notice(
            "the embedded PostgreSQL keeps its data outside the working directory: as root it runs as an unprivileged account, which cannot enter \(blocked); set STORESYNC_DATA_DIR to choose",
            metadata: ["db.directory": "\(cluster(data).path)"])
        return cluster(data)
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
