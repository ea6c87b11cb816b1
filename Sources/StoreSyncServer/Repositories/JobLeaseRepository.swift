import Foundation
import PostgresLibPQ

/// SQL over `job_leases`: one holder at a time per background job, across servers.
struct JobLeaseRepository: Sendable {
    /// Takes or renews the lease on `job` for `seconds` of the database's clock; `false` while
    /// another holder's lease runs.
    ///
    /// One statement, so two servers asking at once serialise on the row: the first inserts or
    /// takes over an expired lease, the second finds it held.
    func acquire(_ job: String, holder: UUID, seconds: Int, on connection: PostgresConnection) async throws -> Bool {
        !(try await connection.query(
            """
            INSERT INTO job_leases (job, holder, expires_at)
            VALUES (\(job), \(holder), now() + \(seconds) * interval '1 second')
            ON CONFLICT (job) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
            WHERE job_leases.holder = EXCLUDED.holder OR job_leases.expires_at < now()
            RETURNING 1
            """
        ).isEmpty)
    }

    /// Gives the lease up, if `holder` holds it.
    func release(_ job: String, holder: UUID, on connection: PostgresConnection) async throws {
        try await connection.execute("DELETE FROM job_leases WHERE job = \(job) AND holder = \(holder)")
    }

    /// Who holds the lease now, if anyone.
    func holder(of job: String, on connection: PostgresConnection) async throws -> UUID? {
        try await connection.query(
            "SELECT holder FROM job_leases WHERE job = \(job) AND expires_at >= now()"
        ).first?.decode(UUID.self)
    }
}
