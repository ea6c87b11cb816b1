/// The rows a statement returned, and how many rows it affected.
public struct PostgresRows: Sendable, RandomAccessCollection {
    let storage: PostgresResultStorage

    /// Rows affected by INSERT, UPDATE, DELETE, MERGE, or returned by SELECT (0 for other commands).
    public let affectedRows: Int

    /// The command tag the server answered with, such as `INSERT 0 1` or `COMMIT`.
    public let commandTag: String

    init(storage: PostgresResultStorage, affectedRows: Int, commandTag: String) {
        self.storage = storage
        self.affectedRows = affectedRows
        self.commandTag = commandTag
    }

    /// The result's column names, in order.
    public var columns: [String] { storage.columnNames }

    /// The index of the first row.
    public var startIndex: Int { 0 }

    /// One past the index of the last row.
    public var endIndex: Int { storage.rowCount }

    /// The row at `position`.
    ///
    /// - Parameter position: A row index in `0..<count`.
    public subscript(position: Int) -> PostgresRow {
        precondition(indices.contains(position), "row index \(position) out of range 0..<\(count)")
        return PostgresRow(storage: storage, index: position)
    }
}
