import Foundation
import StoreSyncAPI
import StoreSyncCore

extension PurchaseRefreshResponse {
    /// The answer to a refresh: what it stored and appended, for whom.
    init(_ refreshed: ReconciliationService.Refreshed) {
        let applied = refreshed.applied
        self.init(
            originalTransactionId: refreshed.originalTransactionId, environment: refreshed.environment,
            holders: applied.holders,
            versionsAdded: applied.inserted
                .sorted { ($0.transactionId, $0.signedDate, $0.accountId.uuidString) < ($1.transactionId, $1.signedDate, $1.accountId.uuidString) }
                .map { Version(accountId: $0.accountId, transactionId: $0.transactionId, signedDate: Date(millisecondsSince1970: $0.signedDate)) },
            renewalInfoUpdated: applied.renewalInfoStored.sorted { $0.uuidString < $1.uuidString },
            events: applied.events.map {
                Event(accountId: $0.accountId, kind: $0.kind.rawValue, transactionId: $0.transactionId, reason: $0.reason)
            },
            accountVersions: applied.changedAccounts.sorted { $0.key.uuidString < $1.key.uuidString }.map {
                AccountVersion(accountId: $0.key, version: $0.value)
            },
            skippedItems: refreshed.skippedItems)
    }
}
