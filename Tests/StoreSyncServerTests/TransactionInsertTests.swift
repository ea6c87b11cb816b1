import Foundation
import PostgresLibPQ
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The batch insert sends the JWS apart from the other columns (a text[] joined back by row
/// number): every version must be stored with its own JWS, or none.
@Suite struct TransactionInsertTests {
    @Test func everyVersionIsStoredWithItsOwnSignedTransaction() async throws {
        try await withServer { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let now = server.clock.now()
            var versions: [(accountId: UUID, record: TransactionRecord)] = []
            for index in 0..<7 {
                var record = TestPurchases.record(purchased: now.addingTimeInterval(Double(index)))
                record.signedTransaction = index % 3 == 0 ? nil : "jws-\(record.transactionId)-\(index)"
                versions.append((index % 2 == 0 ? x.accountId : y.accountId, record))
            }
            let inserted = try await server.database.withConnection {
                try await TransactionRepository().insert(versions, on: $0)
            }
            #expect(inserted.count == versions.count)

            let stored = try await server.database.withConnection { connection in
                try await connection.query(
                    "SELECT account_id, transaction_id, signed_transaction FROM transactions"
                ).map { try $0.decode((UUID, String, String?).self) }
            }
            #expect(stored.count == versions.count)
            for (accountId, record) in versions {
                let row = try #require(stored.first { $0.1 == record.transactionId })
                #expect(row.0 == accountId)
                #expect(row.2 == record.signedTransaction)
            }

            // Stored again: every row conflicts, nothing changes.
            let again = try await server.database.withConnection {
                try await TransactionRepository().insert(versions, on: $0)
            }
            #expect(again.isEmpty)
        }
    }
}
