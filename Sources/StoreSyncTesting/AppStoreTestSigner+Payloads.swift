public import AppStoreVerification
import Foundation
public import StoreSyncCore

extension AppStoreTestSigner {
    /// Apple's transaction payload for a record, as the App Store would sign it.
    ///
    /// - Parameter record: The transaction.
    /// - Returns: The payload, with this signer's bundle id and the record's environment.
    public func transactionPayload(for record: TransactionRecord) -> TransactionPayload {
        var payload = TransactionPayload(
            originalTransactionId: record.originalTransactionId,
            transactionId: record.transactionId,
            bundleId: bundleId,
            productId: record.productId,
            type: AppStoreProductType(record.productType),
            purchaseDate: record.purchaseDate,
            originalPurchaseDate: record.originalPurchaseDate,
            expiresDate: record.expiresDate,
            signedDate: record.signedDate,
            environment: record.environment.appleName)
        payload.quantity = record.quantity
        payload.appAccountToken = record.appAccountToken
        payload.inAppOwnershipType = InAppOwnershipType(record.ownershipType)
        payload.revocationDate = record.revocationDate
        payload.revocationReason = record.revocationReason
        payload.revocationType = record.revocationDate == nil ? nil : (record.ownershipType == .familyShared ? .familyRevoke : .refundFull)
        payload.isUpgraded = record.isUpgraded ? true : nil
        payload.subscriptionGroupIdentifier = record.subscriptionGroupId
        payload.transactionReason = record.transactionId == record.originalTransactionId ? .purchase : .renewal
        payload.storefront = "USA"
        payload.storefrontId = "143441"
        payload.currency = "USD"
        payload.price = 4990
        if record.productType == .autoRenewable {
            payload.webOrderLineItemId = "woli-\(record.transactionId)"
        }
        return payload
    }

    /// Apple's renewal info payload for a StoreSync renewal info.
    ///
    /// - Parameter info: The renewal info.
    /// - Returns: The payload.
    public func renewalInfoPayload(for info: RenewalInfo) -> RenewalInfoPayload {
        var payload = RenewalInfoPayload(
            originalTransactionId: info.originalTransactionId,
            autoRenewProductId: info.autoRenewProductId,
            productId: info.productId,
            autoRenewStatus: info.autoRenewStatus ? 1 : 0,
            signedDate: info.signedDate,
            environment: info.environment.appleName)
        payload.isInBillingRetryPeriod = info.isInBillingRetryPeriod
        payload.gracePeriodExpiresDate = info.gracePeriodExpiresDate
        payload.expirationIntent = info.expirationIntent
        return payload
    }
}
