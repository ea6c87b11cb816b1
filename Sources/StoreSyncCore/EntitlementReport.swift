/// The entitlements derived from a ledger, and an explanation for every purchase and
/// entitlement id the ledger mentions.
public struct EntitlementReport: Sendable, Hashable, Codable {
    /// The granted entitlements, one per entitlement id, ordered by entitlement id.
    public var entitlements: [Entitlement]
    /// Ordered by entitlement id (`nil` first), then original transaction id, then product id.
    public var explanations: [EntitlementExplanation]

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - entitlements: The granted entitlements.
    ///   - explanations: The explanations.
    public init(entitlements: [Entitlement], explanations: [EntitlementExplanation]) {
        self.entitlements = entitlements
        self.explanations = explanations
    }

    /// The granted entitlement with this id.
    ///
    /// - Parameter entitlementId: The entitlement id.
    /// - Returns: The entitlement, or `nil` when it is not granted.
    public func entitlement(_ entitlementId: String) -> Entitlement? {
        entitlements.first { $0.entitlementId.compareUTF8(entitlementId) == 0 }
    }

    /// Every explanation about one entitlement id.
    ///
    /// - Parameter entitlementId: The entitlement id.
    /// - Returns: The explanations of every purchase that mentions it.
    public func explanations(for entitlementId: String) -> [EntitlementExplanation] {
        explanations.filter { $0.entitlementId.map { $0.compareUTF8(entitlementId) == 0 } ?? false }
    }
}
