import Crypto
import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// Migration 0010 splits the signed texts that rows written before it hold whole: every text
/// must come back byte for byte, each distinct header stored once, and the server must go on
/// using the rows (history, recognising held texts, claiming unclaimed versions).
@Suite struct SignedTextMigrationTests {
    /// Samples of every spelling at payload lengths of each remainder modulo 3, and past 2 KB.
    private static let samples = SignedTextSample.Spelling.allCases.flatMap { spelling in
        [0, 1, 2, 3, 500, 2_101].map { length in
            SignedTextSample(
                payload: (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length) }, spelling: spelling,
                headerVariant: length % 3)
        }
    }

    @Test func rowsWrittenBeforeItKeepEveryTextExactlyAndStayUsable() async throws {
        let before = try TestDatabase.migrations(before: "0010")
        defer { try? FileManager.default.removeItem(at: before) }
        let database = try await TestCluster.makeDatabase(migrationsDirectory: before)
        // The first server stands in for a release before 0010: it only signs accounts up (the
        // rows are written the old way below). The catalog file is loaded by the migrated
        // instance: loading it needs a later migration's column (0014).
        let catalog = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString).json")
        try StoreSyncJSON.makeEncoder().encode(CatalogResponse(products: TestCatalog.products)).write(to: catalog)
        defer { try? FileManager.default.removeItem(at: catalog) }
        let first = try await TestApp.start(database: database, configure: {
            $0.schemaDirectory = before.path
            $0.catalogPath = nil
        })
        do {
            let holder = try await first.signUp()
            let claimant = try await first.signUp()
            let now = first.clock.now()
            let old = OldRows(now: now)
            let lifetime = TestPurchases.record(purchased: now.addingTimeInterval(-3_600))
            var heldLifetime = lifetime
            heldLifetime.signedTransaction = first.signer.signTransaction(lifetime)
            let unclaimed = TestPurchases.record(purchased: now.addingTimeInterval(-7_200))
            var refunded = unclaimed
            refunded.revocationDate = now
            refunded.signedDate = now
            let texts = Self.samples.map { $0.text(signer: first.signer) }
            try await first.database.withConnection { connection in
                try await old.insertTransactions(texts.map { text in
                    var record = TestPurchases.record(purchased: now)
                    record.signedTransaction = text
                    return record
                } + [heldLifetime], for: holder.accountId, on: connection)
                try await old.insertRenewalInfos(texts, for: holder.accountId, on: connection)
                try await old.insertUnclaimed(first.signer.signTransaction(refunded), of: unclaimed, on: connection)
            }
            let written = try await Self.texts(on: first.database)
            #expect(written.count == 2 * texts.count + 2)

            try await withSecondInstance(of: first, configure: {
                $0.schemaDirectory = TestDatabase.schemaDirectory.path
                $0.catalogPath = catalog.path
            }) {
                migrated in
                #expect(try await Self.texts(on: migrated.database) == written)
                let forms = try await Self.forms(on: migrated.database)
                for (sample, text) in zip(Self.samples, texts) {
                    #expect(forms[text] == sample.splits, "\(sample)")
                }
                let headers = Set((zip(Self.samples, texts).filter(\.0.splits).map(\.1) + [heldLifetime.signedTransaction!])
                    .map { $0.split(separator: ".")[0] })
                #expect(try await migrated.count("jws_headers") == headers.count)

                let history = try await migrated.send(
                    "GET", "/v1/admin/purchases/\(lifetime.originalTransactionId)", token: migrated.adminKey)
                #expect(try history.decode(PurchaseHistory.self).transactions.map(\.signedTransaction)
                    == [heldLifetime.signedTransaction])
                let known = try await migrated.restore([heldLifetime], token: holder.token)
                #expect(known.verdicts.map(\.verdict) == [.known])

                var presented = unclaimed
                presented.signedTransaction = migrated.signer.signTransaction(unclaimed)
                let claimed = try await migrated.restore([presented], token: claimant.token)
                #expect(claimed.verdicts.map(\.verdict) == [.accepted])
                #expect(claimed.snapshot.entitlements.isEmpty, "the refund kept before the migration applies")
                #expect(try await migrated.count("unclaimed_versions") == 0)
            }
        } catch {
            await first.stop()
            throw error
        }
        await first.stop()
    }

    /// Every signed text the tables hold, whichever form it is in, with the digest of those
    /// that have one, keyed by table and row.
    private static func texts(on database: ConnectionPool) async throws -> [String: String] {
        try await database.withConnection { connection in
            let split = try await connection.query(
                "SELECT count(*) FROM information_schema.columns WHERE column_name = 'jws_payload'"
            ).first?.decode(Int.self) ?? 0
            let text: StaticString = "coalesce(signed_transaction, storesync_jws(jws_header_sha256, jws_payload, jws_signature))"
            let query: PostgresQuery = split == 0
                ? """
                  SELECT 't:' || transaction_id, signed_transaction || ' ' || encode(signed_transaction_sha256, 'hex')
                  FROM transactions
                  UNION ALL SELECT 'r:' || original_transaction_id, signed_renewal_info FROM renewal_infos
                  UNION ALL SELECT 'u:' || original_transaction_id, signed_payload FROM unclaimed_versions
                  """
                : """
                  SELECT 't:' || transaction_id, \(unescaped: text) || ' ' || encode(signed_transaction_sha256, 'hex')
                  FROM transactions
                  UNION ALL SELECT 'r:' || original_transaction_id,
                      coalesce(signed_renewal_info, storesync_jws(jws_header_sha256, jws_payload, jws_signature))
                  FROM renewal_infos
                  UNION ALL SELECT 'u:' || original_transaction_id,
                      coalesce(signed_payload, storesync_jws(jws_header_sha256, jws_payload, jws_signature))
                  FROM unclaimed_versions
                  """
            return try await connection.query(query).reduce(into: [:]) { texts, row in
                let (key, value) = try row.decode((String, String).self)
                texts[key] = value
            }
        }
    }

    /// Whether each transaction text is stored split, by its text.
    private static func forms(on database: ConnectionPool) async throws -> [String: Bool] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT coalesce(signed_transaction, storesync_jws(jws_header_sha256, jws_payload, jws_signature)),
                    jws_payload IS NOT NULL
                FROM transactions
                """
            ).reduce(into: [:]) { forms, row in
                let (text, split) = try row.decode((String, Bool).self)
                forms[text] = split
            }
        }
    }
}

/// Rows as the server wrote them before migration 0010, each signed text whole.
private struct OldRows {
    let now: Date

    func insertTransactions(_ records: [TransactionRecord], for accountId: UUID, on connection: PostgresConnection)
        async throws
    {
        for record in records {
            try await connection.execute(
                """
                INSERT INTO transactions (
                    account_id, transaction_id, original_transaction_id, product_id, product_type, purchase_date,
                    original_purchase_date, ownership_type, environment, quantity, signed_date, evidence,
                    signed_transaction, signed_transaction_sha256)
                VALUES (
                    \(accountId), \(record.transactionId), \(record.originalTransactionId), \(record.productId),
                    \(record.productType.rawValue), \(record.purchaseDate), \(record.originalPurchaseDate),
                    \(record.ownershipType.rawValue), \(record.environment.rawValue), \(record.quantity), \(record.signedDate),
                    'jws', \(record.signedTransaction), \(record.signedTransaction.map(SignedTransactionDigest.bytes(of:))))
                """)
            try await connection.execute(
                """
                INSERT INTO purchase_owners (original_transaction_id, account_id, environment)
                VALUES (\(record.originalTransactionId), \(accountId), 'sandbox') ON CONFLICT DO NOTHING
                """)
        }
    }

    func insertRenewalInfos(_ texts: [String], for accountId: UUID, on connection: PostgresConnection) async throws {
        for text in texts {
            try await connection.execute(
                """
                INSERT INTO renewal_infos (
                    account_id, original_transaction_id, signed_date, auto_renew_status, environment, signed_renewal_info)
                VALUES (\(accountId), \(TestPurchases.nextId()), \(now), true, 'sandbox', \(text))
                """)
        }
    }

    func insertUnclaimed(_ text: String, of record: TransactionRecord, on connection: PostgresConnection) async throws {
        try await connection.execute(
            """
            INSERT INTO unclaimed_versions (original_transaction_id, kind, signed_date, signed_payload)
            VALUES (\(record.originalTransactionId), 'transaction', \(now), \(text))
            """)
        try await connection.execute(
            """
            INSERT INTO purchase_owners (original_transaction_id, account_id, environment)
            VALUES (\(record.originalTransactionId), NULL, 'sandbox')
            """)
    }
}
