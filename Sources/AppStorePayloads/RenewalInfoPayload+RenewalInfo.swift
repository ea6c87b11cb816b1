package import Foundation
package import StoreSyncCore

extension RenewalInfoPayload {
    /// The StoreSync renewal info of this payload.
    ///
    /// - Parameters:
    ///   - environment: The environment it was verified for.
    ///   - signedRenewalInfo: The JWS it came from.
    /// - Returns: The renewal info.
    /// - Throws: ``PayloadError/malformed(_:)`` when `originalTransactionId` or
    ///   `signedDate` is missing or a date is out of range.
    package func renewalInfo(environment: AppStoreEnvironment, signedRenewalInfo: String) throws(PayloadError)
        -> RenewalInfo
    {
        guard let originalTransactionId, !originalTransactionId.isEmpty else {
            throw .malformed("originalTransactionId is missing")
        }
        guard let signedDate = try signedDate.storable("signedDate") else { throw .malformed("signedDate is missing") }
        return RenewalInfo(
            originalTransactionId: originalTransactionId,
            autoRenewProductId: autoRenewProductId,
            productId: productId,
            autoRenewStatus: autoRenewStatus == 1,
            isInBillingRetryPeriod: isInBillingRetryPeriod ?? false,
            gracePeriodExpiresDate: try gracePeriodExpiresDate.storable("gracePeriodExpiresDate"),
            expirationIntent: expirationIntent,
            environment: environment,
            signedDate: signedDate,
            signedRenewalInfo: signedRenewalInfo
        )
    }
}
