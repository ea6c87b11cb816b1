public import StoreSyncCore

/// Whether the customer bought the product or has it through Family Sharing (`inAppOwnershipType`).
public struct InAppOwnershipType: AppleStringValue {
    /// Apple's spelling of the value.
    public var rawValue: String

    /// Wraps Apple's spelling, known or not.
    ///
    /// - Parameter rawValue: The value as it appears in the signed JSON.
    public init(rawValue: String) { self.rawValue = rawValue }
}

extension InAppOwnershipType {
    /// `PURCHASED`.
    public static let purchased: Self = "PURCHASED"
    /// `FAMILY_SHARED`.
    public static let familyShared: Self = "FAMILY_SHARED"

    /// StoreSync's ownership type, or `nil` for a value it does not know.
    public var ownershipType: OwnershipType? {
        switch self {
        case .purchased: .purchased
        case .familyShared: .familyShared
        default: nil
        }
    }

    /// Apple's spelling of a StoreSync ownership type.
    ///
    /// - Parameter ownershipType: The ownership type.
    public init(_ ownershipType: OwnershipType) {
        self = ownershipType == .familyShared ? .familyShared : .purchased
    }
}
