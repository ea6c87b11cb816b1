/// One row of a result; decode its columns into Swift values or a tuple.
///
/// ```swift
/// for row in rows {
///     let (id, name, deletedAt) = try row.decode((UUID, String, Date?).self)
/// }
/// ```
public struct PostgresRow: Sendable {
    @usableFromInline let storage: PostgresResultStorage
    @usableFromInline let index: Int

    /// The column names, in order.
    public var columns: [String] { storage.columnNames }

    /// Decodes the row's columns, in order, into a tuple (or a single value).
    ///
    /// - Parameters:
    ///   - types: The Swift type of each column, for example `(UUID, String, Date?).self`.
    ///   - file: The caller's file, named in errors.
    ///   - line: The caller's line, named in errors.
    /// - Returns: The decoded values.
    /// - Throws: ``PostgresDecodingError`` naming the first column that did not decode, or a
    ///   column count that differs from the tuple's.
    @inlinable
    public func decode<each T: PostgresDecodable>(
        _ types: (repeat each T).Type,
        file: String = #fileID,
        line: Int = #line
    ) throws -> (repeat each T) {
        var expected = 0
        for _ in repeat (each T).self { expected += 1 }
        guard expected == storage.columnNames.count else {
            throw columnCountError(expected: expected, types: types, file: file, line: line)
        }
        var column = 0
        func next<Value: PostgresDecodable>(_ type: Value.Type) throws -> Value {
            defer { column += 1 }
            return try decodeColumn(at: column, as: type, file: file, line: line)
        }
        return (repeat try next((each T).self))
    }

    /// Decodes consecutive columns beginning at `offset` into a tuple, for rows that carry a
    /// record and more columns beside it (the rest is left to other decodes).
    ///
    /// - Parameters:
    ///   - types: The Swift type of each column, for example `(UUID, String, Date?).self`.
    ///   - offset: The zero-based index of the first column.
    ///   - file: The caller's file, named in errors.
    ///   - line: The caller's line, named in errors.
    /// - Returns: The decoded values.
    /// - Throws: ``PostgresDecodingError`` naming the first column that did not decode, or a row
    ///   with too few columns.
    @inlinable
    public func decode<each T: PostgresDecodable>(
        _ types: (repeat each T).Type,
        startingAt offset: Int,
        file: String = #fileID,
        line: Int = #line
    ) throws -> (repeat each T) {
        var expected = 0
        for _ in repeat (each T).self { expected += 1 }
        guard offset >= 0, offset + expected <= storage.columnNames.count else {
            throw columnCountError(expected: offset + expected, types: types, file: file, line: line)
        }
        var column = offset
        func next<Value: PostgresDecodable>(_ type: Value.Type) throws -> Value {
            defer { column += 1 }
            return try decodeColumn(at: column, as: type, file: file, line: line)
        }
        return (repeat try next((each T).self))
    }

    /// Decodes the column with the given name.
    ///
    /// - Parameters:
    ///   - column: The column's name as the result labels it.
    ///   - type: The Swift type to decode into.
    ///   - file: The caller's file, named in errors.
    ///   - line: The caller's line, named in errors.
    /// - Returns: The decoded value.
    /// - Throws: ``PostgresDecodingError`` when no column has the name or the value does not decode.
    public func decode<T: PostgresDecodable>(
        column: String,
        as type: T.Type = T.self,
        file: String = #fileID,
        line: Int = #line
    ) throws -> T {
        guard let position = storage.columnNames.firstIndex(of: column) else {
            throw PostgresDecodingError(
                reason: .missingColumn, columnName: column, columnIndex: -1, targetType: "\(type)",
                postgresType: nil, file: file, line: line
            )
        }
        return try decodeColumn(at: position, as: type, file: file, line: line)
    }

    /// Decodes the column at a zero-based position.
    ///
    /// - Parameters:
    ///   - position: The column's index.
    ///   - type: The Swift type to decode into.
    ///   - file: The caller's file, named in errors.
    ///   - line: The caller's line, named in errors.
    /// - Returns: The decoded value.
    /// - Throws: ``PostgresDecodingError`` naming the column.
    @inlinable
    public func decodeColumn<T: PostgresDecodable>(
        at position: Int,
        as type: T.Type = T.self,
        file: String = #fileID,
        line: Int = #line
    ) throws -> T {
        guard position >= 0, position < storage.columnTypes.count else {
            throw columnError(.missingColumn, at: position, type: type, file: file, line: line)
        }
        let postgresType = storage.columnTypes[position]
        do {
            return try storage.withCell(row: index, column: position) { bytes in
                guard let bytes else { return try T.postgresNull() }
                return try T(postgresBytes: bytes, type: postgresType)
            }
        } catch {
            throw columnError(
                (error as? PostgresDecodingError.Reason) ?? .other(String(describing: error)), at: position, type: type,
                file: file, line: line)
        }
    }

    /// The error for a column that did not decode; out of line, so decoding stays small.
    @usableFromInline
    func columnError(
        _ reason: PostgresDecodingError.Reason, at position: Int, type: Any.Type, file: String, line: Int
    ) -> PostgresDecodingError {
        let known = storage.columnNames.indices.contains(position)
        return PostgresDecodingError(
            reason: reason, columnName: known ? storage.columnNames[position] : "", columnIndex: position,
            targetType: "\(type)", postgresType: known ? storage.columnTypes[position] : nil, file: file, line: line)
    }

    /// The error for a row with fewer columns than a tuple asks for.
    @usableFromInline
    func columnCountError(expected: Int, types: Any.Type, file: String, line: Int) -> PostgresDecodingError {
        PostgresDecodingError(
            reason: .columnCountMismatch(expected: expected, actual: storage.columnNames.count),
            columnName: "", columnIndex: -1, targetType: "\(types)", postgresType: nil, file: file, line: line)
    }
}
