import Foundation
import PostgresLibPQ
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncCore
import StoreSyncTesting
import Testing

/// A restore reads what the account holds while its entries are verified; the database
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

    /// Locks the account in a database transaction handed `read`, and gives what the
    /// transaction starts from.
    private func lockAccount(
        _ account: UUID, startingFrom read: AccountHoldings, on server: TestApp
    ) async throws -> AccountHoldings {
        try await server.database.withTransaction(rollbackOnly: true) { connection in
            try await SyncTransaction(
                connection: connection, presenter: account, options: SyncOptions(userInitiated: true, dryRun: false),
                rules: OwnershipRules(policy: .transfer), catalog: Catalog(TestCatalog.products), now: server.clock.now(),
                events: EventRepository(queuesWebhookDeliveries: false)
            ).lockAccount(startingFrom: read)
        }
    }

    private func holdings(of account: UUID, on server: TestApp) async throws -> AccountHoldings {
        try #require(try await server.database.withConnection {
            try await LookupQuery.run([account], withDigests: true, on: $0)[account]
        })
    }

    @Test func aReadOvertakenByAnotherWriteIsReadAgainUnderTheLock() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let lifetime = try await buy(TestPurchases.record(purchased: now), on: server, token: account.token)
            let stale = try await holdings(of: account.accountId, on: server)
            // Another device's upload lands between the read and the restore's lock.
            let pass = try await buy(
                TestPurchases.record(TestCatalog.seasonPass, type: .nonRenewing, purchased: now), on: server,
                token: account.token)

            let locked = try await lockAccount(account.accountId, startingFrom: stale, on: server)
            #expect(locked.version > stale.version)
            #expect(Set(locked.ledger.records.map(\.transactionId)) == [lifetime.transactionId, pass.transactionId])
        }
    }

    @Test func aReadAtTheLockedVersionStandsInForTheLedger() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let lifetime = try await buy(TestPurchases.record(purchased: server.clock.now()), on: server, token: account.token)
            let current = try await holdings(of: account.accountId, on: server)
            #expect(current.ledger.records.map(\.transactionId) == [lifetime.transactionId])

            // The transaction starts from the read handed in, not a second one: the read's own
            // records, down to the JWS a lookup leaves out.
            let marked = current.ledger.records.map { record in
                var record = record
                record.signedTransaction = "marker"
                return record
            }
            let handedIn = AccountHoldings(version: current.version, ledger: Ledger(records: marked))
            let locked = try await lockAccount(account.accountId, startingFrom: handedIn, on: server)
            #expect(locked.ledger.records.map(\.signedTransaction) == ["marker"])
            #expect(locked.version == current.version)
        }
    }
}
