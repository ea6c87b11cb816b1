import Foundation
import Logging
import PostgresLibPQ

/// Deleting an account (App Store guideline 5.1.1(v)), whoever asks: its user, or the app's
/// backend for an account bound to its user id.
extension AccountService {
    /// Deletes an account in one database transaction: its purchases are released (each to an
    /// account still holding a shared copy, else to the next account that presents it, under any
    /// policy, with every signed version the server had kept for that account), its email,
    /// password hash, external id, sessions and purchase rows are erased, and `purchaseReleased`
    /// and `accountDeleted` events are appended. The audit trail keeps only ids.
    ///
    /// The account's version row is locked first and against everything, so a restore, sign-in
    /// or notification racing the deletion either finished before it or fails cleanly after it
    /// (the account is gone), leaving no row behind. Every session ends at once here and, through
    /// the change feed, on every other instance; the email may sign up again.
    ///
    /// - Parameters:
    ///   - accountId: The account.
    ///   - reason: Who deleted it, for the audit trail.
    /// - Throws: ``AccountError/accountDeleted`` when it is deleted already.
    func delete(_ accountId: UUID, reason: String) async throws {
        let deletion = AccountDeletionRepository()
        let now = now()
        let (version, ended, released) = try await pool.withRetryingTransaction { connection in
            guard let version = try await accounts.lockForDeletion(accountId, on: connection) else {
                throw AccountError.accountDeleted
            }
            let purchases = try await deletion.lockPurchases(of: accountId, on: connection)
            let released = try await deletion.releaseOwnedPurchases(of: accountId, on: connection)
            let unowned = try await deletion.unowned(purchases, on: connection)
            try await deletion.keepSignedVersions(of: accountId, forPurchases: unowned, on: connection)
            let ended = try await sessions.deleteAll(of: accountId, exceptToken: nil, on: connection)
            try await deletion.erase(accountId, at: now, on: connection)
            try await events.append(Self.deletionEvents(accountId, released: released, reason: reason), on: connection)
            return (version, ended, released)
        }
        ended.forEach(sessionCache.invalidate(tokenHash:))
        snapshots.invalidate(accountId, newVersion: version + 1)
        logger.notice(
            "account deleted",
            metadata: [
                "storesync.account_id": "\(accountId)", "storesync.purchases_released": "\(released.count)",
                "storesync.sessions_ended": "\(ended.count)",
            ])
    }

    /// One `purchaseReleased` per purchase the account owned, then `accountDeleted`.
    private static func deletionEvents(
        _ accountId: UUID, released: [(originalTransactionId: String, nextOwner: UUID?)], reason: String
    ) -> [NewEvent] {
        released.map { purchase in
            NewEvent(
                accountId: accountId, kind: .purchaseReleased, originalTransactionId: purchase.originalTransactionId,
                fromAccountId: accountId, toAccountId: purchase.nextOwner,
                reason: purchase.nextOwner == nil
                    ? "its account was deleted; the next account to present it gets it"
                    : "its account was deleted; the account holding a shared copy owns it now")
        } + [NewEvent(accountId: accountId, kind: .accountDeleted, originalTransactionId: nil, reason: reason)]
    }
}
