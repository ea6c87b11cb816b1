import StoreSyncTesting

extension BenchSeeder {
    /// One batch of the seed, in one database transaction: accounts `range` with their version,
    /// session, purchases, renewal infos, owner rows and claim events.
    static func script(accounts range: ClosedRange<Int>) -> String {
        let id = accountId("n")
        let numbers = "generate_series(\(range.lowerBound), \(range.upperBound)) AS n"
        return """
            BEGIN;
            INSERT INTO accounts (account_id, email, email_normalized, password_hash, app_account_token)
            SELECT \(id), 'bench-' || n || '@example.com', 'bench-' || n || '@example.com',
                   'seeded-without-password', md5('app-' || n)::uuid
            FROM \(numbers);
            INSERT INTO account_versions (account_id, version) SELECT \(id), 1 FROM \(numbers);
            INSERT INTO sessions (account_id, device_id, token_hash, device_name)
            SELECT \(id), md5('device-' || n)::uuid, sha256(convert_to(\(token("n")), 'UTF8')), 'bench device'
            FROM \(numbers);

            CREATE TEMPORARY TABLE seed_purchases ON COMMIT DROP AS
            SELECT n, \(id) AS account_id, md5('app-' || n)::uuid AS token,
                   (\(firstTransactionId) + n * 3 + j)::text AS transaction_id,
                   CASE (n * 3 + j) % 10
                       WHEN 0 THEN '\(TestCatalog.lifetime)' WHEN 1 THEN '\(TestCatalog.lifetime)' WHEN 2 THEN '\(TestCatalog.lifetime)'
                       WHEN 3 THEN '\(TestCatalog.monthly)' WHEN 4 THEN '\(TestCatalog.monthly)' WHEN 5 THEN '\(TestCatalog.monthly)'
                       WHEN 6 THEN '\(TestCatalog.monthlyPro)'
                       WHEN 7 THEN '\(TestCatalog.seasonPass)' WHEN 8 THEN '\(TestCatalog.seasonPass)'
                       ELSE '\(TestCatalog.coins)' END AS product_id,
                   now() - make_interval(days => ((n * 3 + j) % 90), hours => j) AS purchased,
                   (n * 3 + j) % 50 = 0 AS refunded
            FROM \(numbers) CROSS JOIN generate_series(1, 3) AS j;

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
            """
    }
}
