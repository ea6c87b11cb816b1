import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting

/// An entitlement a scenario expects an account or device to end with. Only what is stated
/// is compared: `"premium"` alone matches any source of premium; naming the product, the
/// expiry or family sharing pins those too.
struct ExpectedEntitlement: Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    enum Expiry: Hashable {
        case unstated
        case lifetime
        case at(Date)
    }

    var entitlementId: String
    var productId: String?
    var expiry: Expiry = .unstated
    var ownership: OwnershipType = .purchased
    /// The granting purchase's environment, when stated.
    var environment: AppStoreEnvironment?

    init(
        _ entitlementId: String, product: String? = nil, expiry: Expiry = .unstated, ownership: OwnershipType = .purchased,
        environment: AppStoreEnvironment? = nil
    ) {
        self.entitlementId = entitlementId
        productId = product
        self.expiry = expiry
        self.ownership = ownership
        self.environment = environment
    }

    init(stringLiteral value: String) {
        self.init(value)
    }

    func matches(_ entitlement: Entitlement) -> Bool {
        guard entitlement.entitlementId == entitlementId, entitlement.ownershipType == ownership else { return false }
        if let productId, entitlement.productId != productId { return false }
        if let environment, entitlement.environment != environment { return false }
        switch expiry {
        case .unstated: return true
        case .lifetime: return entitlement.expiresAt == nil
        case .at(let date): return entitlement.expiresAt == date
        }
    }

    var description: String {
        var text = entitlementId
        if let productId { text += " from \(productId)" }
        switch expiry {
        case .unstated: break
        case .lifetime: text += " for life"
        case .at(let date): text += " until \(date.formatted(.iso8601))"
        }
        if ownership == .familyShared { text += " (family-shared)" }
        if let environment { text += " [\(environment.rawValue)]" }
        return text
    }
}

extension [ExpectedEntitlement] {
    /// Whether these expectations and the actual entitlements pair up one to one.
    func matchOneToOne(_ actual: [Entitlement]) -> Bool {
        guard count == actual.count else { return false }
        var unmatched = actual
        for expected in self {
            guard let index = unmatched.firstIndex(where: expected.matches) else { return false }
            unmatched.remove(at: index)
        }
        return true
    }
}

extension Entitlement {
    /// One line for failure messages.
    var summary: String {
        "\(entitlementId) from \(productId) (\(originalTransactionId))"
            + (expiresAt.map { " until \($0.formatted(.iso8601))" } ?? " for life")
            + (ownershipType == .familyShared ? " (family-shared)" : "") + " [\(environment.rawValue)]"
    }
}
