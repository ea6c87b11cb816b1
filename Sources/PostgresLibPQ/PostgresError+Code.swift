extension PostgresError {
    /// An SQLSTATE code (five characters), or one of this library's client-side codes.
    ///
    /// Client-side codes use class `SS`, which PostgreSQL never issues, so they never collide
    /// with a server code.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The five-character code as the server sent it.
        public let raw: String

        /// Wraps a raw five-character code.
        ///
        /// - Parameter raw: The SQLSTATE, for example `"23505"`.
        public init(raw: String) {
            self.raw = raw
        }

        /// The raw code.
        public var description: String { raw }

        // MARK: Client side

        /// No connection could be opened (server down, wrong socket, refused authentication).
        public static let connectionFailed = Code(raw: "SS001")
        /// The connection died while in use; whether the statement ran is unknown.
        public static let connectionLost = Code(raw: "SS002")
        /// No pooled connection became free within the checkout timeout.
        public static let poolTimeout = Code(raw: "SS003")
        /// The pool was shut down.
        public static let poolShutDown = Code(raw: "SS004")
        /// libpq returned something this library did not expect (a bug, or an unsupported command such as COPY).
        public static let unexpectedResponse = Code(raw: "SS005")

        // MARK: Server side

        /// 08000: a connection exception.
        public static let connectionException = Code(raw: "08000")
        /// 0A000: the feature is not supported (also "cached plan must not change result type").
        public static let featureNotSupported = Code(raw: "0A000")
        /// 22001: a string is too long for its column.
        public static let stringDataRightTruncation = Code(raw: "22001")
        /// 22003: a number is out of range for its type.
        public static let numericValueOutOfRange = Code(raw: "22003")
        /// 22P02: the text of a value does not parse as its type.
        public static let invalidTextRepresentation = Code(raw: "22P02")
        /// 22021: text not valid in the database encoding (in UTF-8: a NUL character).
        public static let characterNotInRepertoire = Code(raw: "22021")
        /// 23000: an integrity constraint was violated.
        public static let integrityConstraintViolation = Code(raw: "23000")
        /// 23001: a RESTRICT rule forbids the change.
        public static let restrictViolation = Code(raw: "23001")
        /// 23502: a NOT NULL column got NULL.
        public static let notNullViolation = Code(raw: "23502")
        /// 23503: a foreign key has no matching row, or a referenced row is still referenced.
        public static let foreignKeyViolation = Code(raw: "23503")
        /// 23505: a unique constraint or index already holds the value.
        public static let uniqueViolation = Code(raw: "23505")
        /// 23514: a CHECK constraint failed.
        public static let checkViolation = Code(raw: "23514")
        /// 23P01: an exclusion constraint failed.
        public static let exclusionViolation = Code(raw: "23P01")
        /// 25P02: the transaction already failed; commands are ignored until its end.
        public static let inFailedSQLTransaction = Code(raw: "25P02")
        /// 26000: the named prepared statement does not exist.
        public static let invalidSQLStatementName = Code(raw: "26000")
        /// 40001: a serializable transaction could not be serialized; retry it.
        public static let serializationFailure = Code(raw: "40001")
        /// 40P01: a deadlock was detected; retry the transaction.
        public static let deadlockDetected = Code(raw: "40P01")
        /// 42601: a syntax error.
        public static let syntaxError = Code(raw: "42601")
        /// 42501: the role lacks the privilege.
        public static let insufficientPrivilege = Code(raw: "42501")
        /// 42P01: the table does not exist.
        public static let undefinedTable = Code(raw: "42P01")
        /// 42703: the column does not exist.
        public static let undefinedColumn = Code(raw: "42703")
        /// 42883: no function matches the name and argument types.
        public static let undefinedFunction = Code(raw: "42883")
        /// 42P04: the database already exists.
        public static let duplicateDatabase = Code(raw: "42P04")
        /// 42P07: the table (or other relation) already exists.
        public static let duplicateTable = Code(raw: "42P07")
        /// 3D000: the database does not exist.
        public static let invalidCatalogName = Code(raw: "3D000")
        /// 53300: the server has no connection slots left.
        public static let tooManyConnections = Code(raw: "53300")
        /// 55P03: a lock could not be obtained (NOWAIT, lock_timeout).
        public static let lockNotAvailable = Code(raw: "55P03")
        /// 57014: the statement was cancelled (statement_timeout, pg_cancel_backend).
        public static let queryCanceled = Code(raw: "57014")
        /// 57P01: the server is shutting down, or an administrator terminated the session.
        public static let adminShutdown = Code(raw: "57P01")
        /// 57P02: the server is crashing.
        public static let crashShutdown = Code(raw: "57P02")
        /// 57P03: the server is starting up or shutting down and takes no connections.
        public static let cannotConnectNow = Code(raw: "57P03")
        /// P0001: a PL/pgSQL RAISE EXCEPTION without a specific code.
        public static let raiseException = Code(raw: "P0001")
        /// XX000: an internal server error.
        public static let internalError = Code(raw: "XX000")

        private static let names: [String: String] = [
            "SS001": "connection failed", "SS002": "connection lost", "SS003": "pool timeout",
            "SS004": "pool shut down", "SS005": "unexpected response",
            "08000": "connection exception", "0A000": "feature not supported",
            "22001": "string data right truncation", "22003": "numeric value out of range",
            "22P02": "invalid text representation", "23000": "integrity constraint violation",
            "23001": "restrict violation", "23502": "not null violation",
            "23503": "foreign key violation", "23505": "unique violation", "23514": "check violation",
            "23P01": "exclusion violation", "25P02": "in failed SQL transaction",
            "26000": "invalid SQL statement name", "40001": "serialization failure",
            "40P01": "deadlock detected", "42601": "syntax error", "42501": "insufficient privilege",
            "42P01": "undefined table", "42703": "undefined column", "42883": "undefined function",
            "42P04": "duplicate database", "42P07": "duplicate table", "3D000": "invalid catalog name",
            "53300": "too many connections", "55P03": "lock not available", "57014": "query canceled",
            "57P01": "admin shutdown", "57P02": "crash shutdown", "57P03": "cannot connect now",
            "P0001": "raise exception", "XX000": "internal error",
        ]

        /// A short human name for the code ("unique violation"), or its class when unnamed.
        public var name: String {
            if let known = Self.names[raw] { return known }
            switch raw.prefix(2) {
            case "08": return "connection exception"
            case "22": return "data exception"
            case "23": return "integrity constraint violation"
            case "40": return "transaction rollback"
            case "42": return "syntax error or access rule violation"
            case "53": return "insufficient resources"
            case "57": return "operator intervention"
            default: return "error"
            }
        }
    }
}
