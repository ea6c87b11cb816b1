/// A database URL that cannot be used, with what is wrong with it.
///
/// Descriptions never repeat the URL, which may hold a password.
public enum PostgresConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text has no `scheme://`.
    case missingScheme
    /// The scheme is not `postgres` or `postgresql`.
    case unsupportedScheme(String)
    /// The host part cannot be parsed.
    case invalidHost(String)
    /// The port is not a number in 1...65535.
    case invalidPort(String)
    /// The URL names no database.
    case missingDatabase
    /// `sslmode` has a value libpq does not know.
    case invalidSSLMode(String)
    /// A query parameter this library does not know.
    case unknownParameter(String)
    /// A known query parameter with an unusable value.
    case invalidParameter(String)
    /// A part of the URL (named) has broken percent-encoding.
    case invalidPercentEncoding(String)
    /// The user or password holds `/`, `?` or `#` not percent-encoded.
    case unencodedUserInfo

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .missingScheme: return "database URL must start with postgres:// or postgresql://"
        case .unsupportedScheme(let scheme): return "database URL scheme '\(scheme)' is not postgres or postgresql"
        case .invalidHost(let host): return "database URL host '\(host)' is malformed"
        case .invalidPort(let port): return "database URL port '\(port)' is not a number from 1 to 65535"
        case .missingDatabase: return "database URL names no database (add /name after the host)"
        case .invalidSSLMode(let mode):
            return "database URL sslmode '\(mode)' is not one of " + PostgresConfiguration.SSLMode.allCases.map(\.rawValue).joined(separator: ", ")
        case .unknownParameter(let name): return "database URL parameter '\(name)' is not supported"
        case .invalidParameter(let name): return "database URL parameter '\(name)' has an invalid value"
        case .invalidPercentEncoding(let part): return "database URL \(part) has invalid percent-encoding"
        case .unencodedUserInfo:
            return "database URL user or password holds / ? or # unencoded: percent-encode them (%2F %3F %23)"
        }
    }
}
