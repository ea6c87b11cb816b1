import Foundation

/// The wire form: DESIGN §2's field names, the evidence as its kind (`jws`, `receipt`,
/// `unverifiedJWS`, `claim`) with `verifiedAt` for receipts, and `signedTransaction` when
/// the copy carries its JWS. Dates follow the coder's date strategy.
extension TransactionRecord: Codable {
    /// The wire names: the one list of the record's fields on the wire, which StoreSyncWire's
    /// fast reader and canonical writer derive theirs from.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case transactionId, originalTransactionId, productId, productType
        case purchaseDate, originalPurchaseDate, expiresDate, revocationDate, revocationReason
        case isUpgraded, ownershipType, environment, appAccountToken, quantity, signedDate
        case subscriptionGroupId, evidence, verifiedAt, signedTransaction
    }

    /// Decodes the wire form; absent `isUpgraded`, `ownershipType` (`purchased`),
    /// `environment` (`production`) and `quantity` take their defaults. Members it does not
    /// know are ignored, so a newer server may add some.
    ///
    /// A decoder that ``Swift/CodingUserInfoKey/readsNewerServerValues`` (a device reading
    /// what its server wrote) reads an unknown `ownershipType` or `environment` as their
    /// defaults and an unknown evidence kind as ``Evidence/unrecognized(kind:)``; any other
    /// decoder refuses them.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when a required field is missing or malformed, or a kind,
    ///   environment or ownership type is unknown to a decoder that does not read newer values.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let lenient = decoder.readsNewerServerValues
        let kind = try c.decode(String.self, forKey: .evidence)
        let verifiedAt = kind == "receipt" ? try c.decode(Date.self, forKey: .verifiedAt) : nil
        guard let evidence = Evidence(kind: kind, verifiedAt: verifiedAt) ?? (lenient ? .unrecognized(kind: kind) : nil) else {
            throw DecodingError.dataCorruptedError(
                forKey: .evidence, in: c,
                debugDescription: "evidence must be jws, receipt, unverifiedJWS or claim, not \(kind)")
        }
        self.init(
            transactionId: try c.decode(String.self, forKey: .transactionId),
            originalTransactionId: try c.decode(String.self, forKey: .originalTransactionId),
            productId: try c.decode(String.self, forKey: .productId),
            productType: try c.decode(ProductType.self, forKey: .productType),
            purchaseDate: try c.decode(Date.self, forKey: .purchaseDate),
            originalPurchaseDate: try c.decode(Date.self, forKey: .originalPurchaseDate),
            expiresDate: try c.decodeIfPresent(Date.self, forKey: .expiresDate),
            revocationDate: try c.decodeIfPresent(Date.self, forKey: .revocationDate),
            revocationReason: try c.decodeIfPresent(RevocationReason.self, forKey: .revocationReason),
            isUpgraded: try c.decodeIfPresent(Bool.self, forKey: .isUpgraded) ?? false,
            ownershipType: try c.decodeKnown(OwnershipType.self, forKey: .ownershipType, fallback: .purchased, lenient: lenient),
            environment: try c.decodeKnown(AppStoreEnvironment.self, forKey: .environment, fallback: .production, lenient: lenient),
            appAccountToken: try c.decodeIfPresent(UUID.self, forKey: .appAccountToken),
            quantity: try c.decodeIfPresent(Int.self, forKey: .quantity) ?? 1,
            signedDate: try c.decode(Date.self, forKey: .signedDate),
            subscriptionGroupId: try c.decodeIfPresent(String.self, forKey: .subscriptionGroupId),
            evidence: evidence,
            signedTransaction: try c.decodeIfPresent(String.self, forKey: .signedTransaction)
        )
    }

    /// Encodes the wire form; absent optionals are omitted.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: An error of the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(transactionId, forKey: .transactionId)
        try c.encode(originalTransactionId, forKey: .originalTransactionId)
        try c.encode(productId, forKey: .productId)
        try c.encode(productType, forKey: .productType)
        try c.encode(purchaseDate, forKey: .purchaseDate)
        try c.encode(originalPurchaseDate, forKey: .originalPurchaseDate)
        try c.encodeIfPresent(expiresDate, forKey: .expiresDate)
        try c.encodeIfPresent(revocationDate, forKey: .revocationDate)
        try c.encodeIfPresent(revocationReason, forKey: .revocationReason)
        try c.encode(isUpgraded, forKey: .isUpgraded)
        try c.encode(ownershipType, forKey: .ownershipType)
        try c.encode(environment, forKey: .environment)
        try c.encodeIfPresent(appAccountToken, forKey: .appAccountToken)
        try c.encode(quantity, forKey: .quantity)
        try c.encode(signedDate, forKey: .signedDate)
        try c.encodeIfPresent(subscriptionGroupId, forKey: .subscriptionGroupId)
        try c.encode(evidence.kind, forKey: .evidence)
        if case .receipt(let verifiedAt) = evidence { try c.encode(verifiedAt, forKey: .verifiedAt) }
        try c.encodeIfPresent(signedTransaction, forKey: .signedTransaction)
    }
}
