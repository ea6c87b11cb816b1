import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

/// What a stored transaction costs on disk: its certificate chain is stored once (migration
/// 0010), so a row takes much less than the JWS it keeps byte for byte.
@Suite struct StoragePerTransactionTests {
    /// The bytes of `transactions` (table, indexes, TOAST) and `jws_headers`, over the number of
    /// rows: the measure `PERFORMANCE.md` reports. A generous bound, not a measurement: a row
    /// holding its whole JWS (out of line, as before) took about one and a half times the
    /// text's length.
    @Test func aRestoredTransactionTakesLessThanHalfTheLengthOfItsJWS() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            var textBytes = 0
            for batch in 0..<2 {
                let entries = (0..<1_000).map { index in
                    let product = TestCatalog.products[index % TestCatalog.products.count]
                    let purchased = now.addingTimeInterval(-Double(index % 90) * 86_400)
                    return server.entry(TestPurchases.record(
                        product.productId, type: product.type, id: String(3_000_000_000_000 + batch * 1_000 + index),
                        purchased: purchased,
                        expires: product.type == .autoRenewable ? purchased.addingTimeInterval(30 * 86_400) : nil,
                        group: product.subscriptionGroupId))
                }
                textBytes += entries.reduce(0) { $0 + ($1.signedTransaction?.utf8.count ?? 0) }
                let response = try await server.restore(entries, token: account.token)
                #expect(response.verdicts.allSatisfy { $0.verdict == .accepted })
            }
            let (rows, bytes) = try await server.database.withConnection { connection in
                try #require(try await connection.query(
                    """
                    SELECT count(*), pg_total_relation_size('transactions') + pg_total_relation_size('jws_headers')
                    FROM transactions
                    """
                ).first).decode((Int, Int).self)
            }
            #expect(rows == 2_000)
            let perTransaction = Double(bytes) / Double(rows)
            let textLength = Double(textBytes) / Double(rows)
            #expect(perTransaction <= textLength / 2, "\(perTransaction) bytes per transaction, JWS of \(textLength)")
        }
    }
}
