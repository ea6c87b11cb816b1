import AppStoreVerification
import Foundation
import StoreSyncCore

/// Verified versions of one purchase as Apple states them — in a Server Notification, or in
/// answers of the App Store Server API — and where they came from, which decides the events
/// they announce besides revocations.
struct AppleVersions: Sendable {
    /// Where the versions came from.
    enum Source: Sendable, Equatable {
        /// A Server Notification of this type: `DID_RENEW` announces its transaction's renewal
        /// once per holder; `EXPIRED` and `GRACE_PERIOD_EXPIRED` announce an expiry. Versions for
        /// a purchase nobody holds are kept until an account presents it.
        case notification(NotificationType)
        /// The App Store Server API: each of `renewals` (transaction ids Apple marks as renewals)
        /// that a holder did not hold before is announced as renewed; `expiredTransactionId`, the
        /// newest transaction of a subscription Apple reports expired, is announced once per
        /// holder. Nothing is kept for a purchase nobody holds: the API can be asked again.
        case appStoreServerAPI(renewals: Set<String>, expiredTransactionId: String?)
    }

    /// The purchase.
    let originalTransactionId: String
    /// Its transaction versions, each verified.
    let transactions: [TransactionRecord]
    /// Its renewal info, verified.
    let renewalInfo: RenewalInfo?
    let source: Source

    /// The environment Apple signed them in.
    var environment: AppStoreEnvironment {
        transactions.first?.environment ?? renewalInfo?.environment ?? .production
    }
}
