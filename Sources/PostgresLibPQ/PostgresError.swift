/// An error reported by PostgreSQL or by this library's connection handling.
///
/// Compare ``code`` against the named SQLSTATE constants (``Code/uniqueViolation``), never the
/// message text. ``description`` is deliberately generic so the server's message, which may quote
/// user data, never reaches a client by accident; ``debugDescription`` carries every field.
public struct PostgresError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The SQLSTATE code, or one of this library's client-side codes (class `SS`).
    public var code: Code
    /// The server's primary message (or the client's own, for client-side codes).
    public var message: String?
    /// The server's optional secondary message.
    public var detail: String?
    /// The server's optional suggestion.
    public var hint: String?
    /// The severity as the server reported it (`ERROR`, `FATAL`, `PANIC`).
    public var severity: String?
    /// The schema of the object the error is about, when the server names one.
    public var schemaName: String?
    /// The table the error is about, when the server names one.
    public var tableName: String?
    /// The column the error is about, when the server names one.
    public var columnName: String?
    /// The constraint that was violated, when the server names one.
    public var constraintName: String?
    /// The SQL text that failed, when the error came from a statement.
    public var query: String?

    /// Creates an error from its parts.
    ///
    /// - Parameters:
    ///   - code: The SQLSTATE or client-side code.
    ///   - message: The primary message.
    ///   - detail: The secondary message.
    ///   - hint: The suggestion.
    ///   - query: The SQL text that failed.
    public init(code: Code, message: String? = nil, detail: String? = nil, hint: String? = nil, query: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
        self.hint = hint
        self.query = query
    }

    /// Whether the database could not be reached or the connection died.
    ///
    /// True for the client-side connection and pool codes, for SQLSTATE class 08 (connection
    /// exception) and for the server shutting down (57P01, 57P02, 57P03). A server maps these to
    /// 503 Service Unavailable: the request may succeed later, and the caller did nothing wrong.
    public var isConnectionError: Bool {
        switch code {
        case .connectionFailed, .connectionLost, .poolTimeout, .poolShutDown,
             .adminShutdown, .crashShutdown, .cannotConnectNow:
            return true
        default:
            return code.raw.hasPrefix("08")
        }
    }

    /// A generic summary that names the code only, safe to show to anyone.
    public var description: String {
        "PostgreSQL error \(code.raw) (\(code.name))"
    }

    /// Every field, for debugging; logs use ``logDescription``.
    public var debugDescription: String {
        describing([
            ("severity", severity), ("message", message), ("detail", detail), ("hint", hint),
            ("schema", schemaName), ("table", tableName), ("column", columnName),
            ("constraint", constraintName), ("query", query),
        ])
    }

    /// What a log may carry: every field but the server's detail and hint, which quote the
    /// failing row or key (`Failing row contains (…)`, `Key (email)=(…)`) — a user's data, a
    /// token's hash. The code, table, column and constraint say what failed; the query text
    /// holds placeholders, never the values bound to them.
    public var logDescription: String {
        describing([
            ("severity", severity), ("message", message), ("schema", schemaName), ("table", tableName),
            ("column", columnName), ("constraint", constraintName), ("query", query),
        ])
    }

    private func describing(_ fields: [(String, String?)]) -> String {
        var parts = ["PostgresError(code: \(code.raw) \(code.name)"]
        for (label, value) in fields {
            if let value { parts.append("\(label): \(value)") }
        }
        return parts.joined(separator: ", ") + ")"
    }
}

extension PostgresError {
    static func client(_ code: Code, _ message: String, query: String? = nil) -> PostgresError {
        PostgresError(code: code, message: message, query: query)
    }
}
