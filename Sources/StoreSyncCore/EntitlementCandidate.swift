import Foundation

/// One source able to grant an entitlement; the resolver keeps the best per entitlement id.
struct EntitlementCandidate {
    var entitlementId: String
    var productId: String
    var originalTransactionId: String
    var expiresAt: Date?
    var ownershipType: OwnershipType
    var source: ProductType
    var environment: AppStoreEnvironment

    /// The ranking among sources of one entitlement: lifetime beats any expiry, then the later
    /// expiry, then purchased over family-shared, then production over the other environments
    /// (then by their names), then the smaller original transaction id (UTF-8 bytes), then the
    /// smaller product id — a total order, so the winner never depends on the order chains are
    /// visited in.
    func outranks(_ other: Self) -> Bool {
        switch (expiresAt, other.expiresAt) {
        case (nil, .some): return true
        case (.some, nil): return false
        case let (mine?, theirs?) where mine != theirs: return mine > theirs
        default: break
        }
        if ownershipType != other.ownershipType { return ownershipType == .purchased }
        if environment != other.environment {
            if environment == .production || other.environment == .production { return environment == .production }
            return environment < other.environment
        }
        let order = originalTransactionId.compareUTF8(other.originalTransactionId)
        if order != 0 { return order < 0 }
        return productId.compareUTF8(other.productId) < 0
    }

    var entitlement: Entitlement {
        Entitlement(
            entitlementId: entitlementId, productId: productId, originalTransactionId: originalTransactionId,
            expiresAt: expiresAt, ownershipType: ownershipType, source: source, environment: environment)
    }
}
