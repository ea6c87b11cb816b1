import Foundation
import Logging
import PostgresLibPQ
import StoreSyncTesting

/// Seeds the server's database directly, as a long-running deployment would look: accounts
/// with one device session each and three purchases each in a realistic mix (lifetime
/// unlocks, monthly subscriptions in two tiers with their renewal infos, season passes,
/// consumables; a third of the subscriptions lapsed, 2 % of purchases refunded).
///
/// Rows are generated inside PostgreSQL (`generate_series`), so 100,000 accounts take seconds.
/// Account `n`'s id is `md5(n)::uuid`, which lets pgbench pick random accounts with the
/// server's own statement; its bearer token is derived from `n` too.
struct BenchSeeder {
    let database: PostgresConfiguration
    let accounts: Int

    /// The expression of account `n`'s id, shared by the seed and the pgbench script.
    static func accountId(_ n: String) -> String { "md5((\(n))::text)::uuid" }

    /// Account `n`'s 43-character base64url bearer token.
    private static func token(_ n: String) -> String {
        "rtrim(translate(encode(sha256(convert_to('bench-device-' || (\(n)), 'UTF8')), 'base64'), '+/', '-_'), '=')"
    }

    func seed() async throws {
        try await withConnection { connection in
            try await connection.execute(script: Self.script(accounts: accounts))
        }
    }

    /// Lets the database catch up with what was written before a measurement starts: vacuum
    /// and statistics, then a checkpoint, so neither autovacuum nor a checkpoint of the seed or
    /// of the restores' megabytes runs during the next phase's rounds.
    func settle() async throws {
        try await withConnection { connection in
            // One statement each: VACUUM refuses to run inside a multi-statement string.
            try await connection.execute(script: "VACUUM ANALYZE")
            try await connection.execute(script: "CHECKPOINT")
        }
    }

    /// Writes one account id per line and one bearer token per line, in account order.
    func writeLoadFiles(accountIds: URL, tokens: URL) async throws {
        let sql = "SELECT \(Self.accountId("n"))::text, \(Self.token("n")) FROM generate_series(1, \(accounts)) AS n ORDER BY n"
        let rows = try await withConnection { connection in
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

    private func withConnection<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws
        -> Result
    {
        let pool = ConnectionPool(configuration: database, size: 1, logger: Logger(label: "storesync.bench.seed"))
        do {
            let result = try await pool.withConnection(body)
            await pool.shutdown()
            return result
        } catch {
            await pool.shutdown()
            throw error
        }
    }

    private static func script(accounts: Int) -> String {
        let id = accountId("n")
        return """
            BEGIN;
            INSERT INTO accounts (account_id, email, email_normalized, password_hash, app_account_token)
            SELECT \(id), 'bench-' || n || '@example.com', 'bench-' || n || '@example.com',
                   'seeded-without-password', md5('app-' || n)::uuid
            FROM generate_series(1, \(accounts)) AS n;
            INSERT INTO account_versions (account_id, version) SELECT \(id), 1 FROM generate_series(1, \(accounts)) AS n;
            INSERT INTO sessions (account_id, device_id, token_hash, device_name)
            SELECT \(id), md5('device-' || n)::uuid, sha256(convert_to(\(token("n")), 'UTF8')), 'bench device'
            FROM generate_series(1, \(accounts)) AS n;

            CREATE TEMPORARY TABLE seed_purchases ON COMMIT DROP AS
            SELECT n, \(id) AS account_id, md5('app-' || n)::uuid AS token,
                   (2000000000000 + n * 3 + j)::text AS transaction_id,
                   CASE (n * 3 + j) % 10
                       WHEN 0 THEN '\(TestCatalog.lifetime)' WHEN 1 THEN '\(TestCatalog.lifetime)' WHEN 2 THEN '\(TestCatalog.lifetime)'
                       WHEN 3 THEN '\(TestCatalog.monthly)' WHEN 4 THEN '\(TestCatalog.monthly)' WHEN 5 THEN '\(TestCatalog.monthly)'
                       WHEN 6 THEN '\(TestCatalog.monthlyPro)'
                       WHEN 7 THEN '\(TestCatalog.seasonPass)' WHEN 8 THEN '\(TestCatalog.seasonPass)'
                       ELSE '\(TestCatalog.coins)' END AS product_id,
                   now() - make_interval(days => ((n * 3 + j) % 90), hours => j) AS purchased,
                   (n * 3 + j) % 50 = 0 AS refunded
            FROM generate_series(1, \(accounts)) AS n CROSS JOIN generate_series(1, 3) AS j;

            INSERT INTO transactions (
                account_id, transaction_id, signed_date, evidence, original_transaction_id, product_id, product_type,
                purchase_date, original_purchase_date, expires_date, revocation_date, revocation_reason, is_upgraded,
                ownership_type, environment, app_account_token, quantity, subscription_group_id, verified_at)
            SELECT p.account_id, p.transaction_id, p.purchased, 'jws', p.transaction_id, p.product_id, products.type,
                   p.purchased, p.purchased,
                   CASE WHEN products.type = 'autoRenewable' THEN p.purchased + interval '30 days' END,
                   CASE WHEN p.refunded THEN p.purchased + interval '1 day' END,
                   CASE WHEN p.refunded THEN 0 END,
                   false, 'purchased', 'sandbox', p.token, 1, products.subscription_group_id, now()
            FROM seed_purchases AS p JOIN products USING (product_id);

            INSERT INTO renewal_infos (
                account_id, original_transaction_id, signed_date, auto_renew_product_id, product_id, auto_renew_status,
                environment)
            SELECT p.account_id, p.transaction_id, p.purchased, p.product_id, p.product_id, p.n % 3 <> 0, 'sandbox'
            FROM seed_purchases AS p JOIN products USING (product_id) WHERE products.type = 'autoRenewable';

            INSERT INTO purchase_owners (original_transaction_id, account_id, environment, bound_by_token)
            SELECT transaction_id, account_id, 'sandbox', true FROM seed_purchases;

            INSERT INTO events (account_id, kind, original_transaction_id, transaction_id, to_account_id, reason)
            SELECT account_id, 'purchaseClaimed', transaction_id, transaction_id, account_id, 'seeded by make bench'
            FROM seed_purchases;
            COMMIT;
            ANALYZE;
            """
    }
}
