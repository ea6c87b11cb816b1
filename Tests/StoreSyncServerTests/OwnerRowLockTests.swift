import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// A restore locks a purchase's owner row only where the decision depends on it: what the
/// account already owns and holds is presented again without a lock (so without a write), and
/// everything contested still waits for the row.
@Suite struct OwnerRowLockTests {
    @Test func aRestoreOfPurchasesTheAccountOwnsDoesNotWaitForTheirOwnerRows() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let owned = [
                TestPurchases.record(purchased: server.clock.now()),
                TestPurchases.record(TestCatalog.seasonPass, type: .nonRenewing, purchased: server.clock.now()),
            ]
            for record in owned { _ = try await server.buy(record, token: account.token) }

            let outcome = try await restoreWhileOwnerRowsAreLocked(
                owned.map(\.originalTransactionId), server: server, entries: owned.map(server.entry), token: account.token)
            guard case .finished(let response) = outcome else {
                Issue.record("the restore waited for owner rows of purchases its account owns")
                return
            }
            #expect(response.verdicts.map(\.verdict) == [.known, .known])
            #expect(response.snapshot.entitlements.map(\.entitlementId).sorted() == ["premium", "season"])
        }
    }

    @Test func aRestoreOfAPurchaseAnotherAccountOwnsStillWaitsForItsOwnerRow() async throws {
        try await withServer { server in
            let owner = try await server.signUp()
            let presenter = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(purchase, token: owner.token)

            let outcome = try await restoreWhileOwnerRowsAreLocked(
                [purchase.originalTransactionId], server: server, entries: [server.entry(purchase)],
                token: presenter.token)
            guard case .waited(let restoring) = outcome else {
                Issue.record("a transfer was decided without locking the purchase's owner row")
                return
            }
            // The lock is released now: the restore goes on and moves the purchase.
            let response = try await restoring.value
            #expect(response.verdicts.map(\.verdict) == [.transferred])
            #expect(try await server.owner(of: purchase.originalTransactionId) == presenter.accountId)
        }
    }

    @Test func aPurchaseTheAccountOwnsButWhoseTokenNamesAnotherAccountIsLocked() async throws {
        try await withServer { server in
            let first = try await server.signUp()
            let tokenAccount = try await server.signUp()
            var purchase = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(purchase, token: first.token)
            // Apple re-signs the purchase with the other account's token (a later version).
            purchase.appAccountToken = tokenAccount.appAccountToken
            purchase.signedDate = purchase.signedDate.addingTimeInterval(60)

            let outcome = try await restoreWhileOwnerRowsAreLocked(
                [purchase.originalTransactionId], server: server, entries: [server.entry(purchase)], token: first.token)
            guard case .waited(let restoring) = outcome else {
                Issue.record("a purchase routed to its token's account was moved without locking its owner row")
                return
            }
            _ = try await restoring.value
            #expect(try await server.owner(of: purchase.originalTransactionId) == tokenAccount.accountId)
        }
    }

    /// What a restore did while another transaction held the owner rows of `purchases`.
    enum Outcome {
        case finished(SyncResponse)
        /// It waited for a lock; the task finishes once the rows are released.
        case waited(Task<SyncResponse, any Error>)
    }

    /// Holds the owner rows in a transaction of its own while the restore runs, and reports
    /// whether the restore finished or blocked on a lock first (seen in `pg_locks`, so no
    /// timing decides it). The rows are released when this returns.
    private func restoreWhileOwnerRowsAreLocked(
        _ purchases: [String], server: TestApp, entries: [TransactionRecord], token: String
    ) async throws -> Outcome {
        try await server.database.withTransaction { blocker in
            try await blocker.execute(
                "SELECT 1 FROM purchase_owners WHERE original_transaction_id = ANY(\(purchases)) FOR UPDATE")
            let restoring = Task { try await server.restore(entries, token: token) }
            let done = DoneFlag()
            let watcher = Task {
                defer { done.set() }
                _ = try await restoring.value
            }
            while !done.isSet {
                if try await server.someoneWaitsForALock() {
                    return Outcome.waited(restoring)
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            try await watcher.value
            return Outcome.finished(try await restoring.value)
        }
    }
}
