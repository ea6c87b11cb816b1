import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import Testing

@Suite struct ColumnReaderTests {
    @Test func readsColumnsInOrderFromTheOffset() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let row = try #require(
                    try await connection.query("SELECT 7 AS skipped, 'ada' AS name, NULL::timestamptz AS gone, true AS ok").first)
                var columns = row.columns(from: 1)
                #expect(try columns.next(String.self) == "ada")
                #expect(try columns.next(Date?.self) == nil)
                #expect(try columns.next(Bool.self) == true)
                #expect(columns.position == 4)
            }
        }
    }

    @Test func aColumnThatDoesNotDecodeIsNamedWithItsPosition() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let row = try #require(try await connection.query("SELECT 1 AS id, 'abc' AS name").first)
                var columns = row.columns()
                _ = try columns.next(Int.self)
                let error = try #require(throws: PostgresDecodingError.self) { try columns.next(Int.self) }
                #expect(error.columnName == "name")
                #expect(error.columnIndex == 1)
                #expect(error.reason == .typeMismatch)
            }
        }
    }

    @Test func readingPastTheLastColumnIsAMissingColumn() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let row = try #require(try await connection.query("SELECT 1 AS only").first)
                var columns = row.columns()
                _ = try columns.next(Int.self)
                let error = try #require(throws: PostgresDecodingError.self) { try columns.next(Int.self) }
                #expect(error.reason == .missingColumn)
                #expect(error.columnIndex == 1)
            }
        }
    }
}
