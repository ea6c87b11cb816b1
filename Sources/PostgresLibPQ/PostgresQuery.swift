/// A SQL statement and its bound parameters.
///
/// Write queries as string interpolations: every `\(value)` becomes a `$n` placeholder and a
/// separately bound parameter, so input can never become SQL.
///
/// ```swift
/// let rows = try await connection.query("SELECT name FROM users WHERE id = \(id)")
/// ```
///
/// Only a string literal or ``init(unsafeSQL:binds:)`` produce SQL text; a runtime `String`
/// cannot be passed where a query is expected.
public struct PostgresQuery: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The SQL text with `$1`, `$2`, … placeholders.
    public var sql: String
    /// The parameters, in placeholder order.
    public var binds: PostgresBindings

    /// Creates a query from raw SQL text that the caller vouches for.
    ///
    /// - Parameters:
    ///   - unsafeSQL: SQL text, used verbatim. Never build it from input.
    ///   - binds: Parameters for the placeholders in `unsafeSQL`.
    public init(unsafeSQL: String, binds: PostgresBindings = PostgresBindings()) {
        self.sql = unsafeSQL
        self.binds = binds
    }

    /// Creates a query from a literal without interpolations.
    ///
    /// - Parameter value: The SQL literal; a `StaticString`, so it is fixed at compile time.
    public init(stringLiteral value: StaticString) {
        self.sql = value.description
        self.binds = PostgresBindings()
    }

    /// Creates a query from an interpolation, binding every interpolated value.
    ///
    /// - Parameter stringInterpolation: The collected SQL text and parameters.
    public init(stringInterpolation: StringInterpolation) {
        self.sql = stringInterpolation.sql
        self.binds = stringInterpolation.binds
    }

    /// Collects SQL text and parameters while a query literal is interpolated.
    public struct StringInterpolation: StringInterpolationProtocol {
        /// Literal segments are static, so only the interpolated values are data.
        public typealias StringLiteralType = StaticString

        var sql: String
        var binds: PostgresBindings

        /// Reserves room for the literal text and the interpolated values.
        ///
        /// - Parameters:
        ///   - literalCapacity: The combined length of the literal segments.
        ///   - interpolationCount: How many values are interpolated.
        public init(literalCapacity: Int, interpolationCount: Int) {
            sql = ""
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            binds = PostgresBindings()
        }

        /// Appends a literal segment of SQL text.
        ///
        /// - Parameter literal: The segment.
        public mutating func appendLiteral(_ literal: StaticString) {
            sql += literal.description
        }

        /// Appends a fixed SQL fragment verbatim — a column list shared by several queries.
        ///
        /// It takes a `StaticString`, so only text written in the source can be spliced in,
        /// never a runtime value.
        ///
        /// - Parameter fragment: The SQL text.
        public mutating func appendInterpolation(unescaped fragment: StaticString) {
            sql += fragment.description
        }

        /// Binds a value as the next parameter and appends its `$n` placeholder.
        ///
        /// - Parameter value: The value; `nil` binds NULL.
        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        /// Binds an optional value (NULL for `nil`) as the next parameter and appends its `$n` placeholder.
        ///
        /// Spelled out for optionals so the compiler does not warn that an optional is being interpolated.
        ///
        /// - Parameter value: The value; `nil` binds a NULL typed like `Wrapped`.
        public mutating func appendInterpolation<Wrapped: PostgresEncodable>(_ value: Wrapped?) {
            binds.append(value)
            sql += "$\(binds.count)"
        }
    }
}

extension PostgresQuery: CustomStringConvertible {
    /// The SQL text and the parameter count; the parameter values are never printed.
    public var description: String {
        binds.count == 0 ? sql : "\(sql) [\(binds.count) parameters]"
    }
}
