import AppStoreVerification
import Foundation
import Hummingbird
import StoreSyncCore

extension AppStoreServerAPIStandInEngine {
    /// Get All Subscription Statuses: per subscription group, each auto-renewable chain's
    /// newest transaction, its renewal info (recorded, or auto-renewing by default) and status.
    func subscriptionStatuses(for transactionId: String) async -> Response {
        guard let customer = await state.customer(holding: transactionId) else {
            return Self.error(404, .transactionIdNotFound, "Transaction id not found.")
        }
        let tamperings = await state.tamperings
        let subscriptions = customer.entries.map(\.record).filter { $0.productType == .autoRenewable }
        let groups = Dictionary(grouping: subscriptions) { $0.subscriptionGroupId ?? "" }
            .sorted { $0.key < $1.key }
            .map { group, records in
                let chains = Dictionary(grouping: records, by: \.originalTransactionId).sorted { $0.key < $1.key }
                return Group(
                    subscriptionGroupIdentifier: group,
                    lastTransactions: chains.compactMap { original, versions in
                        guard let newest = versions.max(by: { $0.periodEnd < $1.periodEnd }) else { return nil }
                        let info = customer.renewalInfos[original] ?? RenewalInfo(
                            originalTransactionId: original, autoRenewProductId: newest.productId,
                            productId: newest.productId, autoRenewStatus: true, environment: newest.environment,
                            signedDate: newest.signedDate)
                        return LastTransaction(
                            status: status(of: newest, renewalInfo: info), originalTransactionId: original,
                            signedTransactionInfo: signed(.transaction(newest.transactionId), tamperings: tamperings) {
                                $0.signTransaction(newest)
                            },
                            signedRenewalInfo: signed(.renewalInfo(original), tamperings: tamperings) {
                                $0.signRenewalInfo(info)
                            })
                    })
            }
        return Self.json(
            StatusBody(
                environment: environment.appleName, bundleId: signer.bundleId, appAppleId: signer.appAppleId,
                data: groups))
    }

    /// Apple's status: revoked, active, in grace period, in billing retry, or expired.
    private func status(of transaction: TransactionRecord, renewalInfo: RenewalInfo) -> Int {
        let now = now()
        if transaction.revocationDate != nil { return 5 }
        if let expires = transaction.expiresDate, expires > now { return 1 }
        if let grace = renewalInfo.gracePeriodExpiresDate, grace > now { return 4 }
        return renewalInfo.isInBillingRetryPeriod ? 3 : 2
    }

    /// Apple's `StatusResponse`.
    private struct StatusBody: Encodable {
        var environment: String
        var bundleId: String
        var appAppleId: Int64
        var data: [Group]
    }

    private struct Group: Encodable {
        var subscriptionGroupIdentifier: String
        var lastTransactions: [LastTransaction]
    }

    private struct LastTransaction: Encodable {
        var status: Int
        var originalTransactionId: String
        var signedTransactionInfo: String
        var signedRenewalInfo: String
    }
}

extension TransactionRecord {
    /// When the period this transaction paid for ends, or began for one without an end.
    fileprivate var periodEnd: Date { expiresDate ?? purchaseDate }
}
