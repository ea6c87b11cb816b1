import Foundation
import PostgresLibPQ

/// SQL of the change feed's poll, the stand-in for `LISTEN` behind a transaction pooler: what
/// the database says now of the accounts and sessions an instance has cached. Both are primary
/// key (or unique index) lookups, in chunks so no statement carries an unbounded array.
struct CachePollRepository: Sendable {
    /// Keys per statement at most.
    static let chunkSize = 10_000

    /// The current version of each of these accounts; an account that no longer exists is missing.
    func versions(of accountIds: [UUID], on connection: PostgresConnection) async throws -> [UUID: Int64] {
        var versions: [UUID: Int64] = [:]
        for start in stride(from: 0, to: accountIds.count, by: Self.chunkSize) {
            let chunk = Array(accountIds[start..<min(start + Self.chunkSize, accountIds.count)])
            for row in try await connection.query(
                "SELECT account_id, version FROM account_versions WHERE account_id = ANY(\(chunk))")
            {
                let (account, version) = try row.decode((UUID, Int64).self)
                versions[account] = version
            }
        }
        return versions
    }

    /// Which of these token hashes still name a session.
    func liveTokenHashes(among hashes: [Data], on connection: PostgresConnection) async throws -> Set<Data> {
        var live: Set<Data> = []
        for start in stride(from: 0, to: hashes.count, by: Self.chunkSize) {
            let chunk = Array(hashes[start..<min(start + Self.chunkSize, hashes.count)])
            for row in try await connection.query("SELECT token_hash FROM sessions WHERE token_hash = ANY(\(chunk))") {
                live.insert(try row.decode(Data.self))
            }
        }
        return live
    }
}
