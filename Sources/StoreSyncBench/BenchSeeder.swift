import Foundation
import PostgresLibPQ

/// Seeds the server's database directly, as a long-running deployment would look: accounts
/// with one device session each and three purchases each in a realistic mix (lifetime
/// unlocks, monthly subscriptions in two tiers with their renewal infos, season passes,
/// consumables; a third of the subscriptions lapsed, 2 % refunded).
///
/// Rows are generated inside PostgreSQL (`generate_series`), a batch of accounts per database
/// transaction, so a million accounts seed in minutes and ten million in one run without one
/// giant transaction. Account `n`'s id is `md5(n)::uuid`, which lets pgbench pick random
/// accounts with the server's own statement; its bearer token is derived from `n` too.
struct BenchSeeder {
    let database: PostgresConfiguration
    let accounts: Int

    /// Accounts per database transaction of the seed.
    static let batch = 100_000

    /// Transaction ids of the seed: account `n`'s purchase `j` (1…3) is `firstTransactionId + 3n + j`.
    static let firstTransactionId: Int64 = 2_000_000_000_000

    /// The expression of account `n`'s id, shared by the seed and the pgbench script.
    static func accountId(_ n: String) -> String { "md5((\(n))::text)::uuid" }

    /// Account `n`'s 43-character base64url bearer token.
    static func token(_ n: String) -> String {
        "rtrim(translate(encode(sha256(convert_to('bench-device-' || (\(n)), 'UTF8')), 'base64'), '+/', '-_'), '=')"
    }

    /// The transaction id of a monthly (not pro) subscription account `n` was seeded with, if any.
    static func monthlySubscription(ofAccount n: Int) -> String? {
        (1...3).first { j in (3...5).contains((n * 3 + j) % 10) }.map { String(firstTransactionId + Int64(n * 3 + $0)) }
    }

    /// Seeds the accounts batch by batch, saying how far it got. After the first batch it
    /// projects the database's final size from the growth so far, and refuses to go on when the
    /// disk holding it has not that much free.
    ///
    /// - Parameters:
    ///   - dataDirectory: Where the cluster keeps its files.
    ///   - progress: Receives one line per batch.
    func seed(into dataDirectory: URL, progress: (String) -> Void) async throws {
        try await BenchDatabase.withConnection(to: database) { connection in
            let start = ContinuousClock.now
            let emptyBytes = try await BenchDatabase.number("SELECT pg_database_size(current_database())", on: connection)
            for first in stride(from: 1, through: accounts, by: Self.batch) {
                let last = min(first + Self.batch - 1, accounts)
                try await connection.execute(script: Self.script(accounts: first...last))
                let bytes = try await BenchDatabase.number("SELECT pg_database_size(current_database())", on: connection)
                let elapsed = (ContinuousClock.now - start).seconds
                let projected = emptyBytes + (bytes - emptyBytes) / last * accounts
                progress(
                    "seeded \(last) of \(accounts) accounts in \(Int(elapsed)) s, database \(bytes / 1_000_000) MB "
                        + "(projected \(projected / 1_000_000) MB, \(Int(elapsed / Double(last) * Double(accounts))) s)")
                if first == 1 { try checkDisk(dataDirectory, needs: projected - bytes) }
            }
            try await connection.execute(script: "ANALYZE")
        }
    }

    /// Throws when the disk under `dataDirectory` has less free than `bytes` and a tenth to spare.
    private func checkDisk(_ dataDirectory: URL, needs bytes: Int) throws {
        let directory = dataDirectory.path
        guard let free = try? FileManager.default.attributesOfFileSystem(forPath: directory)[.systemFreeSize] as? NSNumber
        else { return }
        guard free.int64Value < Int64(bytes) + Int64(bytes) / 10 else { return }
        throw BenchError(
            "seeding \(accounts) accounts needs about \(bytes / 1_000_000_000 + 1) GB more, and the disk under "
                + "\(directory) has \(free.int64Value / 1_000_000_000) GB free: give --work-directory on a larger disk")
    }

    /// Lets the database catch up with what was written before a measurement starts: vacuum
    /// and statistics, then a checkpoint, so neither autovacuum nor a checkpoint of the seed or
    /// of the restores' megabytes runs during the next phase's rounds.
    func settle() async throws {
        try await BenchDatabase.withConnection(to: database) { connection in
            // One statement each: VACUUM refuses to run inside a multi-statement string.
            try await connection.execute(script: "VACUUM ANALYZE")
            try await connection.execute(script: "CHECKPOINT")
        }
    }

    /// Writes the hot set's account ids and bearer tokens, one per line, in the set's order.
    func writeLoadFiles(for hotSet: HotSet, accountIds: URL, tokens: URL) async throws {
        let n = hotSet.accountNumber(expression: "i")
        let sql = """
            SELECT \(Self.accountId(n))::text, \(Self.token(n))
            FROM generate_series(0, \(hotSet.count - 1)) AS i ORDER BY i
            """
        let rows = try await BenchDatabase.withConnection(to: database) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: sql))
        }
        var ids = ""
        var bearers = ""
        for row in rows {
            let (id, token) = try row.decode((String, String).self)
            ids += id + "\n"
            bearers += token + "\n"
        }
        try Data(ids.utf8).write(to: accountIds)
        try Data(bearers.utf8).write(to: tokens)
    }
}
