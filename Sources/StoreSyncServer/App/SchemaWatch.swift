import Logging
import PostgresLibPQ
import ServiceLifecycle

/// Stops this server once a newer build has migrated the database in a way this build cannot
/// run on (a migration it has no file for, not marked `-- older-binaries: compatible`).
///
/// During a rolling deploy the first new server migrates while the old ones still serve; an old
/// one that went on would read and write a schema it no longer understands (at 0010 it would
/// have deleted a deleted account's purchase history instead of keeping it). Each server looks
/// every `interval`, and on finding such a migration logs it and throws, which ends the server;
/// its restart then refuses to start, naming the migration, until the newer build replaces it.
struct SchemaWatch: Service {
    let migrator: SchemaMigrator
    let pool: ConnectionPool
    let interval: Duration
    let gate: StartupGate
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await gate.wait()
                while !Task.isCancelled {
                    try await Task.sleep(for: interval)
                    try await look()
                }
            }
        } catch is CancellationError {
            // The server is shutting down.
        }
    }

    /// One look; a database that cannot be asked now is asked again at the next.
    private func look() async throws {
        let names: [String]
        do {
            names = try await migrator.migrationsThisBuildCannotRunOn(pool)
        } catch {
            logger.debug("could not check the schema's migrations", metadata: ["error": "\(error)"])
            return
        }
        guard names.isEmpty else {
            let error = SchemaMigrationError.databaseNewerThanBinary(names: names)
            logger.critical("stopping: \(error)")
            throw error
        }
    }
}
