internal import CLibPQ

/// Reads a `PGresult` into Swift values; the caller frees the result.
enum LibPQResult {
    static func rows(from result: OpaquePointer) -> PostgresRows {
        let columnCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        let affected = PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
        let tag = PQcmdStatus(result).map { String(cString: $0) } ?? ""
        guard columnCount > 0 else {
            return PostgresRows(storage: .empty, affectedRows: affected, commandTag: tag)
        }
        var names: [String] = []
        var types: [PostgresDataType] = []
        names.reserveCapacity(columnCount)
        types.reserveCapacity(columnCount)
        for column in 0..<Int32(columnCount) {
            names.append(PQfname(result, column).map { String(cString: $0) } ?? "?column?")
            types.append(PostgresDataType(oid: PQftype(result, column)))
        }
        // Every cell's length first: with their sum known, the cells are copied into one
        // buffer of its final size, where appending to a growing one copied everything read so
        // far each time it doubled (megabytes, for an account with thousands of purchases).
        var lengths: [Int32] = []
        lengths.reserveCapacity(rowCount * columnCount)
        var total = 0
        for row in 0..<Int32(rowCount) {
            for column in 0..<Int32(columnCount) {
                let length = PQgetisnull(result, row, column) == 1 ? -1 : PQgetlength(result, row, column)
                lengths.append(length)
                total += Int(max(length, 0))
            }
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(rowCount * columnCount)
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var cell = 0
            for row in 0..<Int32(rowCount) {
                for column in 0..<Int32(columnCount) {
                    offsets.append(initialized)
                    let length = Int(lengths[cell])
                    cell += 1
                    guard length > 0, let value = PQgetvalue(result, row, column) else { continue }
                    UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[initialized..<initialized + length]))
                        .copyMemory(from: UnsafeRawBufferPointer(start: value, count: length))
                    initialized += length
                }
            }
        }
        let storage = PostgresResultStorage(
            columnNames: names, columnTypes: types, rowCount: rowCount,
            bytes: bytes, cellOffsets: offsets, cellLengths: lengths
        )
        return PostgresRows(storage: storage, affectedRows: affected, commandTag: tag)
    }

    static func error(from result: OpaquePointer, query: String) -> PostgresError {
        func field(_ code: Int32) -> String? {
            PQresultErrorField(result, code).map { String(cString: $0) }
        }
        let sqlState = field(CLibPQ_PG_DIAG_SQLSTATE) ?? ""
        var error = PostgresError(
            code: sqlState.isEmpty ? .unexpectedResponse : PostgresError.Code(raw: sqlState),
            message: field(CLibPQ_PG_DIAG_MESSAGE_PRIMARY) ?? PQresultErrorMessage(result).map { String(cString: $0) },
            detail: field(CLibPQ_PG_DIAG_MESSAGE_DETAIL),
            hint: field(CLibPQ_PG_DIAG_MESSAGE_HINT),
            query: query
        )
        error.severity = field(CLibPQ_PG_DIAG_SEVERITY)
        error.schemaName = field(CLibPQ_PG_DIAG_SCHEMA_NAME)
        error.tableName = field(CLibPQ_PG_DIAG_TABLE_NAME)
        error.columnName = field(CLibPQ_PG_DIAG_COLUMN_NAME)
        error.constraintName = field(CLibPQ_PG_DIAG_CONSTRAINT_NAME)
        return error
    }
}
