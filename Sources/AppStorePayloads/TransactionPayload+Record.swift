package import Foundation
package import StoreSyncCore

extension TransactionPayload {
    /// The StoreSync record of this payload.
    ///
    /// - Parameters:
    ///   - evidence: What vouches for it (`jws`, or `unverifiedJWS` under the development switch).
    ///   - environment: The environment it was verified for.
    ///   - signedText: The JWS it came from, however it is held.
    /// - Returns: The record.
    /// A value Apple added after StoreSync learned its vocabulary (a `type`, an
    /// `inAppOwnershipType`, a `transactionReason`, an offer type) or a field StoreSync does not
    /// read never refuses the payload: a new `type` is kept as Apple spelled it, and the catalog
    /// decides what the product grants.
    ///
    /// - Throws: ``PayloadError/malformed(_:)`` when a field StoreSync needs is missing, or a
    ///   date, id or number is out of the range it keeps.
    package func record(
        evidence: Evidence,
        environment: AppStoreEnvironment,
        signedText: SignedText
    ) throws(PayloadError) -> TransactionRecord {
        guard let transactionId, !transactionId.isEmpty else { throw .malformed("transactionId is missing") }
        guard let originalTransactionId, !originalTransactionId.isEmpty else {
            throw .malformed("originalTransactionId is missing")
        }
        guard let productId, !productId.isEmpty else { throw .malformed("productId is missing") }
        guard let type, !type.rawValue.isEmpty else { throw .malformed("type is missing") }
        guard let purchaseDate = try purchaseDate.storable("purchaseDate") else {
            throw .malformed("purchaseDate is missing")
        }
        guard let signedDate = try signedDate.storable("signedDate") else { throw .malformed("signedDate is missing") }
        if let quantity, quantity < 1 { throw .malformed("quantity must be at least 1") }
        var record = TransactionRecord(
            transactionId: transactionId,
            originalTransactionId: originalTransactionId,
            productId: productId,
            productType: type.productType,
            purchaseDate: purchaseDate,
            // Apple always sends it; a payload without one is its own original.
            originalPurchaseDate: try originalPurchaseDate.storable("originalPurchaseDate") ?? purchaseDate,
            expiresDate: try expiresDate.storable("expiresDate"),
            revocationDate: try revocationDate.storable("revocationDate"),
            revocationReason: revocationReason,
            isUpgraded: isUpgraded ?? false,
            // An ownership value Apple adds later stays in the payload; the record counts it as
            // purchased, the only kind that is not a grant through someone else.
            ownershipType: inAppOwnershipType?.ownershipType ?? .purchased,
            environment: environment,
            appAccountToken: appAccountToken,
            quantity: quantity ?? 1,
            signedDate: signedDate,
            subscriptionGroupId: subscriptionGroupIdentifier,
            evidence: evidence
        )
        record.signedText = signedText
        if let field = record.unkeepableField { throw .malformed(field) }
        return record
    }
}
