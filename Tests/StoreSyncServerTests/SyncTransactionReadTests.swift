import Foundation
import PostgresLibPQ
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncCore
import StoreSyncTesting
import Testing

/// A restore reads the account's ledger while its entries are verified; the database
/// transaction starts from that read only if the account's version under the lock is the one
/// it was read at.
@Suite struct SyncTransactionReadTests {
    /// Uploads a purchase the account then holds.
    private func buy(_ record: TransactionRecord, on server: TestApp, token: String) async throws -> TransactionRecord {
        var entry = record
        entry.signedTransaction = server.signer.signTransaction(record)
        _ = try await server.upload(entry.signedTransaction!, token: token)
        return entry
    }

    /// Runs a restore of `entries` in a database transaction that was handed `read`.
    private func restore(
        _ entries: [TransactionRecord], for account: UUID, read: LookupQuery.Found, on server: TestApp
    ) async throws -> SyncTransaction.Result {
        try await server.database.withTransaction { connection in
            try await SyncTransaction(
                connection: connection, presenter: account, options: SyncOptions(userInitiated: true, dryRun: false),
                rules: OwnershipRules(policy: .transfer), catalog: Catalog(TestCatalog.products), now: server.clock.now(),
                read: read, verifyUnclaimed: { _, _ in nil }
            ).run(entries.enumerated().map { SyncItem.verified($1, entry: $0) })
        }
    }

    private func ledger(of account: UUID, on server: TestApp) async throws -> LookupQuery.Found {
        try #require(try await server.database.withConnection {
            try await LookupQuery.run([account], withDigests: true, on: $0)[account]
        })
    }

    @Test func aReadOvertakenByAnotherWriteIsReadAgainUnderTheLock() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let lifetime = try await buy(TestPurchases.record(purchased: now), on: server, token: account.token)
            let stale = try await ledger(of: account.accountId, on: server)
            // Another device's upload lands between the read and the restore's lock.
            let pass = try await buy(
                TestPurchases.record(TestCatalog.seasonPass, type: .nonRenewing, purchased: now), on: server,
                token: account.token)

            let result = try await restore([lifetime, pass], for: account.accountId, read: stale, on: server)
            #expect(result.verdicts.map(\.verdict) == [.known, .known])
            #expect(Set(result.ledger.records.map(\.transactionId)) == [lifetime.transactionId, pass.transactionId])
        }
    }

    @Test func aReadAtTheLockedVersionStandsInForTheLedger() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let lifetime = try await buy(TestPurchases.record(purchased: server.clock.now()), on: server, token: account.token)
            let current = try await ledger(of: account.accountId, on: server)
            #expect(current.ledger.records.map(\.transactionId) == [lifetime.transactionId])

            // Nothing is written, so the ledger the result carries is the read handed in, not a
            // second one: the read's own records, down to the JWS a lookup leaves out.
            let marked = current.ledger.records.map { record in
                var record = record
                record.signedTransaction = "marker"
                return record
            }
            let handedIn = LookupQuery.Found(version: current.version, ledger: Ledger(records: marked))
            let result = try await restore([lifetime], for: account.accountId, read: handedIn, on: server)
            #expect(result.verdicts.map(\.verdict) == [.known])
            #expect(result.ledger.records.map(\.signedTransaction) == ["marker"])
            #expect(result.version == current.version)
        }
    }
}
