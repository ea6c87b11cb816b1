import Logging
import PostgresLibPQ

/// One connection to the server's database for the bench's own statements (seeding, counting,
/// sizing), opened for one piece of work and closed after it.
enum BenchDatabase {
    /// Runs `body` on a connection of a pool of one, then shuts the pool down.
    static func withConnection<Result: Sendable>(
        to database: PostgresConfiguration, _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let pool = ConnectionPool(configuration: database, size: 1, logger: Logger(label: "storesync.bench.database"))
        do {
            let result = try await pool.withConnection(body)
            await pool.shutdown()
            return result
        } catch {
            await pool.shutdown()
            throw error
        }
    }

    /// The one number a statement answers (a count, a size).
    static func number(_ sql: String, on connection: PostgresConnection) async throws -> Int {
        guard let row = try await connection.query(PostgresQuery(unsafeSQL: sql)).first else {
            throw BenchError("no row from: \(sql)")
        }
        return Int(try row.decodeColumn(at: 0, as: Int64.self))
    }
}
