/// A query result copied out of libpq: column names and types, and every cell's bytes in one buffer.
///
/// Copying on the connection's thread lets the `PGresult` be freed at once and keeps every
/// libpq call off the caller's threads; decoding then reads plain Swift memory.
///
/// Its reads are `@inlinable` so that decoding specialises in the caller's module: a generic
/// decode that crosses the module boundary unspecialised looked up type metadata and witness
/// tables for every cell, which cost more than the cells' contents.
@usableFromInline
final class PostgresResultStorage: Sendable {
    @usableFromInline let columnNames: [String]
    @usableFromInline let columnTypes: [PostgresDataType]
    @usableFromInline let rowCount: Int
    /// All non-NULL cells back to back, row-major.
    @usableFromInline let bytes: [UInt8]
    /// Where each cell starts in ``bytes``, row-major.
    @usableFromInline let cellOffsets: [Int]
    /// Each cell's length, or -1 for NULL, row-major.
    @usableFromInline let cellLengths: [Int32]

    init(
        columnNames: [String], columnTypes: [PostgresDataType], rowCount: Int,
        bytes: [UInt8], cellOffsets: [Int], cellLengths: [Int32]
    ) {
        self.columnNames = columnNames
        self.columnTypes = columnTypes
        self.rowCount = rowCount
        self.bytes = bytes
        self.cellOffsets = cellOffsets
        self.cellLengths = cellLengths
    }

    static let empty = PostgresResultStorage(
        columnNames: [], columnTypes: [], rowCount: 0, bytes: [], cellOffsets: [], cellLengths: []
    )

    /// Lends the bytes of one cell (nil for NULL) to `body`.
    @inlinable
    func withCell<R>(row: Int, column: Int, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        let cell = row * columnNames.count + column
        let length = Int(cellLengths[cell])
        guard length >= 0 else { return try body(nil) }
        let offset = cellOffsets[cell]
        return try bytes.withUnsafeBytes { all in
            try body(UnsafeRawBufferPointer(rebasing: all[offset..<offset + length]))
        }
    }
}
