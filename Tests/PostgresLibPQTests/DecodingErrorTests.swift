import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import Testing

@Suite struct DecodingErrorTests {
    @Test func typeMismatchNamesTheColumnItsIndexAndTheTypes() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let row = try #require(try await connection.query("SELECT 1 AS id, 'abc' AS name").first)
                let error = try #require(throws: PostgresDecodingError.self) { try row.decode((Int, Int).self) }
                #expect(error.columnName == "name")
                #expect(error.columnIndex == 1)
                #expect(error.targetType == "Int")
                #expect(error.reason == .typeMismatch)
                #expect(error.description.contains("\"name\""))
                #expect(error.description.contains("index 1"))
                #expect(error.description.contains("Int"))
                #expect(error.file.hasSuffix("DecodingErrorTests.swift"))
            }
        }
    }

    @Test func nullIntoANonOptionalIsAnUnexpectedNull() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let row = try #require(try await connection.query("SELECT NULL::text AS nickname").first)
                let error = try #require(throws: PostgresDecodingError.self) { try row.decode(String.self) }
                #expect(error.reason == .unexpectedNull)
                let nickname = try row.decode(String?.self)
                #expect(nickname == nil)
            }
        }
    }

    @Test func tupleOfTheWrongWidthIsAColumnCountMismatch() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let row = try #require(try await connection.query("SELECT 1, 2, 3").first)
                let error = try #require(throws: PostgresDecodingError.self) { try row.decode((Int, Int).self) }
                #expect(error.reason == .columnCountMismatch(expected: 2, actual: 3))
            }
        }
    }

    @Test func unknownColumnNameIsAMissingColumn() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let row = try #require(try await connection.query("SELECT 1 AS present").first)
                let error = try #require(throws: PostgresDecodingError.self) { try row.decode(column: "absent", as: Int.self) }
                #expect(error.reason == .missingColumn)
                #expect(error.columnName == "absent")
            }
        }
    }

    @Test func valueTooLargeForInt32IsRejectedNotTruncated() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let row = try #require(try await connection.query("SELECT 5000000000::bigint AS big").first)
                #expect(throws: PostgresDecodingError.self) { try row.decode(Int32.self) }
            }
        }
    }
}

@Suite struct PrefixDecodingTests {
    @Test func decodingFromAnOffsetReadsOnlyThoseColumnsAndRefusesTooFew() async throws {
        try await TestCluster.withPool { pool in
            let row = try await pool.withConnection { connection in
                try await connection.query("SELECT 1::int8 AS a, 'x'::text AS b, true AS c").first!
            }
            let (b, c) = try row.decode((String, Bool).self, startingAt: 1)
            #expect(b == "x")
            #expect(c)
            #expect(throws: PostgresDecodingError.self) { try row.decode((Bool, Bool).self, startingAt: 2) }
        }
    }
}
