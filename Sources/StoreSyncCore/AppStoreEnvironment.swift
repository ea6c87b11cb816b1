/// The App Store environment that signed a transaction.
///
/// Raw values are StoreSync's wire names; ``appleName`` is the spelling Apple uses in
/// signed payloads and in `STORESYNC_ENVIRONMENT`.
public enum AppStoreEnvironment: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case production
    case sandbox
    case xcode
    case localTesting

    /// Apple's spelling: `Production`, `Sandbox`, `Xcode`, `LocalTesting`.
    public var appleName: String {
        switch self {
        case .production: "Production"
        case .sandbox: "Sandbox"
        case .xcode: "Xcode"
        case .localTesting: "LocalTesting"
        }
    }

    /// Parses Apple's spelling of an environment.
    ///
    /// - Parameter appleName: `Production`, `Sandbox`, `Xcode` or `LocalTesting`.
    /// - Returns: The environment, or `nil` for any other text.
    public init?(appleName: String) {
        guard let match = Self.allCases.first(where: { $0.appleName == appleName }) else { return nil }
        self = match
    }

    /// Orders by raw value, so sorting is stable across platforms.
    ///
    /// - Parameters:
    ///   - lhs: One value.
    ///   - rhs: Another value.
    /// - Returns: Whether `lhs` sorts first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
