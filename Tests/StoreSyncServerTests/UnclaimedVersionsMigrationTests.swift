import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncTesting
import Testing

/// Migration 0013 on a database that already keeps unclaimed versions: each gets the digest of
/// its payload, and two versions of one purchase signed in the same millisecond then both fit.
@Suite struct UnclaimedVersionsMigrationTests {
    @Test func keptVersionsGetTheirPayloadDigestAndSameMillisecondVersionsBothFit() async throws {
        let earlier = try TestDatabase.migrations(before: "0013")
        defer { try? FileManager.default.removeItem(at: earlier) }
        try await TestCluster.withPool(migrationsDirectory: earlier) { pool in
            let purchase = TestPurchases.nextId()
            try await pool.withConnection { connection in
                try await connection.execute(
                    "INSERT INTO purchase_owners (original_transaction_id, account_id, environment) VALUES (\(purchase), NULL, 'sandbox')")
                try await connection.execute(
                    """
                    INSERT INTO unclaimed_versions (original_transaction_id, kind, signed_date, signed_payload)
                    VALUES (\(purchase), 'transaction', '2026-11-27 12:00:00+00', 'first.version.text')
                    """)
            }

            let applied = try await SchemaMigrator(directory: TestDatabase.schemaDirectory, logger: TestCluster.logger)
                .migrate(pool)

            #expect(applied.contains("0013_unclaimed_versions_told_apart_by_payload"))
            try await pool.withConnection { connection in
                let digest = try await connection.query("SELECT payload_sha256 FROM unclaimed_versions").first?.decode(Data.self)
                let expected = try await connection.query("SELECT sha256('first.version.text'::bytea)").first?.decode(Data.self)
                #expect(digest != nil && digest == expected)
                try await connection.execute(
                    """
                    INSERT INTO unclaimed_versions (original_transaction_id, kind, signed_date, signed_payload)
                    VALUES (\(purchase), 'transaction', '2026-11-27 12:00:00+00', 'second.version.text')
                    ON CONFLICT DO NOTHING
                    """)
                let kept = try await connection.query("SELECT count(*)::bigint FROM unclaimed_versions").first?.decode(Int.self)
                #expect(kept == 2)
            }
        }
    }
}
