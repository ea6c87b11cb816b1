import AppStoreVerification

/// Why a route or job that needs the App Store Server API got no answer from it.
enum AppStoreAPIFailure: Error, Equatable {
    /// The API settings are not set; these are the missing ones.
    case notConfigured(missing: [Setting])
    /// Apple answered with an error, or did not answer.
    case apple(AppStoreServerAPIError)

    /// Whether the same call may succeed later without anyone changing anything.
    var isTransient: Bool {
        switch self {
        case .notConfigured: false
        case .apple(.rateLimited), .apple(.unavailable), .apple(.unreachable), .apple(.cancelled): true
        case .apple: false
        }
    }

    /// Whether other calls may still succeed: not so while Apple fails or limits, or refuses
    /// the key, or while the API is not configured.
    var concernsThisCallOnly: Bool {
        switch self {
        case .notConfigured, .apple(.unauthorized): false
        case .apple: !isTransient
        }
    }
}
