import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The batched lookup statement answers each account exactly as a lookup of that account
/// alone would, against the repositories that write the same tables.
@Suite struct LookupQueryTests {
    @Test func aBatchAnswersEachAccountAsItsOwnLookupAndLeavesOutUnknownAccounts() async throws {
        try await withServer { server in
            let now = server.clock.now()
            let subscriber = try await server.signUp()
            _ = try await server.buyLapsedSubscriptionInGracePeriod(token: subscriber.token)
            let collector = try await server.signUp()
            for _ in 0..<3 {
                _ = try await server.buy(TestPurchases.record(purchased: now), token: collector.token)
            }
            let empty = try await server.signUp()
            let unknown = UUID()

            let ids = [subscriber.accountId, unknown, collector.accountId, empty.accountId]
            let batch = try await server.database.withConnection { try await LookupQuery.run(ids, on: $0) }
            #expect(Set(batch.keys) == [subscriber.accountId, collector.accountId, empty.accountId])

            let versions = try await server.versions()
            for account in [subscriber, collector, empty] {
                let alone = try await server.database.withConnection {
                    try await LookupQuery.run([account.accountId], on: $0)
                }
                let stored = try await server.database.withConnection {
                    try await TransactionRepository().ledger(of: account.accountId, on: $0)
                }
                let found = try #require(batch[account.accountId])
                #expect(found.version == versions[account.accountId])
                #expect(found.ledger == stored)
                #expect(alone[account.accountId]?.ledger == stored)
                #expect(alone[account.accountId]?.version == found.version)
            }
            #expect(batch[subscriber.accountId]?.ledger.renewalInfos.count == 1)
            #expect(batch[collector.accountId]?.ledger.records.count == 3)
            #expect(batch[empty.accountId]?.ledger == Ledger())
        }
    }

    /// A long lookup answer is decoded in two halves at once; an account whose rows fall in
    /// both is merged whole (and parts read with digests merge theirs).
    @Test(arguments: [false, true])
    func aLongAnswerDecodedInHalvesIsTheAnswerDecodedAtOnce(withDigests: Bool) async throws {
        try await withServer { server in
            let (long, short) = (try await server.signUp(), try await server.signUp())
            let longCount = LookupService.concurrentDecodingThreshold + 400
            try await server.database.withConnection { connection in
                for (account, count, firstId) in [(long.accountId, longCount, 80_000_000), (short.accountId, 300, 90_000_000)] {
                    _ = try await connection.query(
                        """
                        INSERT INTO transactions (
                            account_id, transaction_id, signed_date, evidence, original_transaction_id, product_id,
                            product_type, purchase_date, original_purchase_date, ownership_type, environment,
                            signed_transaction, signed_transaction_sha256)
                        SELECT \(account), (\(firstId) + n)::text, now(), 'jws', (\(firstId) + n - n % 3)::text,
                               'com.example.storesync.lifetime', 'nonConsumable', now(), now(), 'purchased', 'sandbox',
                               'text-' || n, sha256(('text-' || n)::bytea)
                        FROM generate_series(1, \(count)) AS n
                        """)
                }
            }
            let rows = try await server.database.withConnection {
                try await $0.query(LookupQuery.query(for: [long.accountId, short.accountId], withDigests: withDigests))
            }
            #expect(rows.count == longCount + 300)
            let halves: [UUID: AccountHoldings]
            if withDigests {
                // The loader never reads digests; parts merged still keep both parts' digests.
                let parts = try CoreSpread.slices(of: rows.count, into: 2).map { range in
                    try LookupQuery.holdings(in: rows, range: range, withDigests: true)
                }
                halves = parts[0].merging(parts[1]) { $0.merging($1) }
            } else {
                halves = try LookupService.holdings(in: rows)
            }
            let atOnce = try LookupQuery.holdings(in: rows, range: rows.indices, withDigests: withDigests)
            for account in [long, short] {
                let split = try #require(halves[account.accountId])
                let whole = try #require(atOnce[account.accountId])
                #expect(split.version == whole.version)
                #expect(split.ledger == whole.ledger)
                #expect(split.verifiedTexts == whole.verifiedTexts)
            }
            #expect(halves[long.accountId]?.ledger.records.count == longCount)
            #expect(halves[long.accountId]?.verifiedTexts.count == (withDigests ? longCount : 0))
        }
    }

    @Test func concurrentLookupsOfManyAccountsEachSeeTheirOwnEntitlements() async throws {
        // Without the snapshot cache every lookup reaches the batched statement.
        try await withServer(configure: { $0.snapshotCacheEntries = 0 }) { server in
            let now = server.clock.now()
            var expected: [String: [String]] = [:]
            for index in 0..<12 {
                let account = try await server.signUp()
                if index % 3 != 0 {
                    _ = try await server.buy(TestPurchases.record(purchased: now), token: account.token)
                }
                expected[account.token] = index % 3 != 0 ? ["premium"] : []
            }
            // Every token several times at once: the lookups queue behind each other and share
            // statements; each answer must still be its own account's.
            try await withThrowingTaskGroup(of: (String, [String]).self) { group in
                for token in expected.keys {
                    for _ in 0..<4 {
                        group.addTask { (token, try await server.entitlementIds(token: token)) }
                    }
                }
                for try await (token, ids) in group {
                    #expect(ids == expected[token])
                }
            }
        }
    }
}
