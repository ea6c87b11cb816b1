import ArgumentParser
import Foundation
import Logging
import PostgresLibPQ
import StoreSyncServer

/// The PostgreSQL a command talks to: the one `DATABASE_URL` names, or — when it is unset —
/// a private cluster under `STORESYNC_DATA_DIR` that this process starts and stops.
struct DatabaseRuntime {
    static let embeddedDatabaseName = "storesync"

    let configuration: PostgresConfiguration
    let embedded: EmbeddedPostgres?

    /// Resolves `DATABASE_URL`, or starts the embedded cluster and makes sure its database exists.
    static func start(for settings: ServerConfiguration, logger: Logger) async throws -> DatabaseRuntime {
        if let url = settings.databaseURL {
            do {
                return DatabaseRuntime(configuration: try PostgresConfiguration(url: url), embedded: nil)
            } catch {
                throw StartupFailure.exit("DATABASE_URL is invalid: \(error)")
            }
        }
        let directory = URL(fileURLWithPath: settings.dataDirectory, isDirectory: true)
            .appendingPathComponent("postgres", isDirectory: true)
        let embedded = EmbeddedPostgres(directory: directory, logger: logger)
        do {
            try await embedded.start()
        } catch {
            throw StartupFailure.exit("the embedded PostgreSQL did not start: \(error)")
        }
        do {
            try await embedded.createDatabase(named: embeddedDatabaseName)
        } catch let error as PostgresError where error.code == .duplicateDatabase {
            // Kept from an earlier run: the data survives restarts.
        }
        var configuration = embedded.configuration
        configuration.database = embeddedDatabaseName
        logger.info("embedded PostgreSQL running", metadata: ["db.directory": "\(directory.path)"])
        return DatabaseRuntime(configuration: configuration, embedded: embedded)
    }

    /// Stops the embedded cluster, if this process started one; its data is kept.
    func stop(logger: Logger) async {
        guard let embedded else { return }
        do {
            try await embedded.stop()
            logger.info("embedded PostgreSQL stopped")
        } catch {
            logger.error("embedded PostgreSQL did not stop cleanly", metadata: ["error": "\(error)"])
        }
    }
}
