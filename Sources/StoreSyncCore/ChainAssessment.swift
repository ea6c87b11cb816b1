import Foundation

/// What one purchase chain amounts to at the evaluation time, before sources compete.
///
/// It names its deciding record by index into the ledger's records rather than holding a
/// copy: copying a record costs a retain per string field, which dominated large derivations.
struct ChainAssessment {
    enum Status {
        /// Grants its product's entitlements until `expiresAt` (`nil`: for life).
        case granted(expiresAt: Date?)
        /// A non-renewing purchase whose place depends on the other purchases of the same
        /// entitlement.
        case stackable(start: Date, duration: TimeInterval)
        /// Grants nothing.
        case denied(EntitlementExplanation.Outcome, expiresAt: Date?)
    }

    var originalTransactionId: String
    /// The index, in the ledger's records, of the record that decided the outcome; the chain
    /// speaks for that record's product.
    var decidingIndex: Int
    /// The catalog's definition of the deciding record's product, `nil` when the catalog lacks it.
    var product: CatalogProduct?
    var ownershipType: OwnershipType
    var status: Status
    /// Why, for people; empty unless the resolver is explaining.
    var reason: String

    /// The product's entitlement ids without repeats, in catalog order.
    var entitlementIds: [String] {
        guard let ids = product?.entitlements, ids.count > 1 else { return product?.entitlements ?? [] }
        // Catalogs rarely repeat an id; only then build a new array.
        let hasRepeats = ids.indices.contains { index in
            ids[..<index].contains { $0.compareUTF8(ids[index]) == 0 }
        }
        guard hasRepeats else { return ids }
        var unique: [String] = []
        for id in ids where !unique.contains(where: { $0.compareUTF8(id) == 0 }) { unique.append(id) }
        return unique
    }
}
