/// A result column could not be decoded into the requested Swift type.
///
/// It names the column, its index, the Swift type asked for, the column's PostgreSQL type,
/// and where in the caller's code the decode happened.
public struct PostgresDecodingError: Error, Sendable, CustomStringConvertible {
    /// Why a value did not decode.
    public enum Reason: Error, Sendable, Hashable, CustomStringConvertible {
        /// The column is NULL and the Swift type is not an `Optional`.
        case unexpectedNull
        /// The column's PostgreSQL type cannot become the Swift type.
        case typeMismatch
        /// The bytes are not a valid value (or the value does not fit the Swift type).
        case malformedValue(String)
        /// The row has a different number of columns than the tuple asked for.
        case columnCountMismatch(expected: Int, actual: Int)
        /// No column has the requested name.
        case missingColumn
        /// A custom conformance threw an error of its own.
        case other(String)

        /// A short explanation.
        public var description: String {
            switch self {
            case .unexpectedNull: return "unexpected NULL"
            case .typeMismatch: return "type mismatch"
            case .malformedValue(let why): return "malformed value: \(why)"
            case .columnCountMismatch(let expected, let actual): return "expected \(expected) columns, the row has \(actual)"
            case .missingColumn: return "no such column"
            case .other(let why): return why
            }
        }
    }

    /// Why decoding failed.
    public var reason: Reason
    /// The column's name (empty when the failure concerns the whole row).
    public var columnName: String
    /// The column's zero-based index (-1 when the failure concerns the whole row).
    public var columnIndex: Int
    /// The Swift type that was asked for.
    public var targetType: String
    /// The column's PostgreSQL type, when a column was involved.
    public var postgresType: PostgresDataType?
    /// The file of the decode call.
    public var file: String
    /// The line of the decode call.
    public var line: Int

    /// Explains the failure with the column, its index and both types.
    public var description: String {
        let column = columnIndex >= 0 ? "column \"\(columnName)\" (index \(columnIndex)" + (postgresType.map { ", \($0)" } ?? "") + ")" : "row"
        return "Cannot decode \(column) as \(targetType): \(reason) at \(file):\(line)"
    }
}
