import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// The writes `storesync-bench` times as the database's floor for a restore of new entries are
/// the writes such a restore makes: the floor measures the rows users' restores leave.
@Suite struct FirstClaimWritesTests {
    @Test func theyLeaveTheRowsARestoreOfTheSameNewPurchasesLeaves() async throws {
        try await withServer { server in
            let restoring = try await server.signUp()
            let writing = try await server.signUp()
            let now = server.clock.now()
            // The same purchases twice over, under other ids: one set restored, one written.
            let shapes = [
                (TestCatalog.lifetime, ProductType.nonConsumable, nil as Date?),
                (TestCatalog.monthly, .autoRenewable, now.addingTimeInterval(30 * 86_400)),
                (TestCatalog.coins, .consumable, nil),
            ]
            func purchases() -> [TransactionRecord] {
                shapes.enumerated().map { index, shape in
                    server.entry(TestPurchases.record(
                        shape.0, type: shape.1, purchased: now.addingTimeInterval(-Double(index) * 60), expires: shape.2,
                        group: shape.2 == nil ? nil : TestCatalog.subscriptionGroup))
                }
            }
            let restored = purchases()
            let written = purchases()
            let before = try await server.versions()

            let response = try await server.restore(restored, token: restoring.token)
            #expect(response.verdicts.map(\.verdict) == [.accepted, .accepted, .accepted])
            try await server.database.withTransaction { connection in
                try await FirstClaimWrites.store(
                    written, for: writing.accountId, at: now, queuesWebhookDeliveries: false, on: connection)
            }

            let after = try await server.versions()
            #expect(after[restoring.accountId] == before[restoring.accountId]! + 1)
            #expect(after[writing.accountId] == before[writing.accountId]! + 1)
            let owners = try await server.ownerRows()
            for (account, purchases) in [(restoring.accountId, restored), (writing.accountId, written)] {
                for purchase in purchases {
                    #expect(owners[purchase.originalTransactionId] == OwnerRow(accountId: account, boundByToken: false))
                    #expect(try await server.holders(of: purchase.originalTransactionId) == [account])
                }
            }
            let rows = try await server.storedRows(of: writing.accountId)
            #expect(rows.count == 3 && rows.allSatisfy { $0.hasSuffix(",t,t)") }, "\(rows)")
            #expect(try await rows == server.storedRows(of: restoring.accountId))
            let events = try await server.claimEvents(of: writing.accountId)
            #expect(events.count == 3)
            #expect(try await events == server.claimEvents(of: restoring.accountId))
        }
    }
}

extension TestApp {
    /// The account's rows of `transactions`, ids and account aside, newest purchase first; the
    /// signed text (whole or in parts, migration 0010) as whether it is there and whether its
    /// digest is its own.
    fileprivate func storedRows(of accountId: UUID) async throws -> [String] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT ROW(product_id, product_type, purchase_date, original_purchase_date, expires_date,
                    revocation_date, revocation_reason, is_upgraded, ownership_type, environment, app_account_token,
                    quantity, signed_date, subscription_group_id, evidence, verified_at, jws IS NOT NULL,
                    signed_transaction_sha256 = sha256(convert_to(jws, 'UTF8')))::text
                FROM transactions,
                    LATERAL (SELECT coalesce(signed_transaction, storesync_jws(jws_header_sha256, jws_payload, jws_signature)) AS jws) AS signed
                WHERE account_id = \(accountId) ORDER BY purchase_date DESC
                """
            ).map { try $0.decode(String.self) }
        }
    }

    /// The kind and reason of each event of the account, oldest first.
    fileprivate func claimEvents(of accountId: UUID) async throws -> [String] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT kind || ': ' || reason || ', to ' || (to_account_id = account_id)::text FROM events
                WHERE account_id = \(accountId) ORDER BY event_id
                """
            ).map { try $0.decode(String.self) }
        }
    }
}
