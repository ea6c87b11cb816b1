import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import Testing

/// Every parameter type goes to the server and comes back unchanged.
@Suite struct RoundTripTests {
    private func echo<Value: PostgresEncodable & PostgresDecodable>(_ value: Value, on connection: PostgresConnection) async throws -> Value {
        let rows = try await connection.query("SELECT \(value)")
        return try #require(rows.first).decode(Value.self)
    }

    @Test func stringsRoundTripIncludingEmptyUnicodeAndQuotes() async throws {
        let strings = ["", "plain", "héllo wörld", "日本語 🎉👩‍👩‍👧", "it's \"quoted\" \\ back", String(repeating: "x", count: 100_000)]
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                for string in strings {
                    let echoed = try await echo(string, on: connection)
                    #expect(echoed == string)
                }
            }
        }
    }

    @Test func integersRoundTripAtTheirLimits() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                for value in [Int.min, -1, 0, 1, Int.max] {
                    let echoed = try await echo(value, on: connection)
                    #expect(echoed == value)
                }
                for value in [Int64.min, 0, Int64.max] {
                    let echoed = try await echo(value, on: connection)
                    #expect(echoed == value)
                }
                for value in [Int32.min, 0, Int32.max] {
                    let echoed = try await echo(value, on: connection)
                    #expect(echoed == value)
                }
            }
        }
    }

    @Test func boolsAndDoublesRoundTripIncludingNaNAndInfinities() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let trueBack = try await echo(true, on: connection)
                #expect(trueBack == true)
                #expect(try await echo(false, on: connection) == false)
                for value in [0.0, -0.0, 1.5, -2.25e300, .leastNonzeroMagnitude, .infinity, -.infinity] {
                    let echoed = try await echo(value, on: connection)
                    #expect(echoed == value)
                }
                let nanBack = try await echo(Double.nan, on: connection)
                #expect(nanBack.isNaN)
            }
        }
    }

    @Test func uuidAndLargeByteaRoundTrip() async throws {
        let uuid = UUID()
        let large = Data((0..<5_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let uuidBack = try await echo(uuid, on: connection)
                #expect(uuidBack == uuid)
                #expect(try await echo(Data(), on: connection) == Data())
                let largeBack = try await echo(large, on: connection)
                #expect(largeBack == large)
            }
        }
    }

    @Test(arguments: [
        Int64(1_700_000_000_123),   // now-ish, with milliseconds
        Int64(0),                   // the Unix epoch
        Int64(-1),                  // one millisecond before it
        Int64(-5_364_662_400_001),  // 1800, just before a second boundary
        Int64(-62_135_596_800_000), // year 1
        Int64(253_402_300_799_999), // 9999-12-31 23:59:59.999
    ])
    func datesKeepTheirMillisecondsBeforeAndLongAfter1970(milliseconds: Int64) async throws {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        try await TestCluster.withPool { pool in
            let back = try await pool.withConnection { try await echo(date, on: $0) }
            #expect(Int64((back.timeIntervalSince1970 * 1000).rounded()) == milliseconds)
            // What the server stored, read back by the server itself: the same millisecond.
            let serverMilliseconds = try await pool.withConnection { connection in
                try #require(try await connection.query("SELECT round(extract(epoch FROM \(date)) * 1000)::bigint").first)
                    .decode(Int64.self)
            }
            #expect(serverMilliseconds == milliseconds)
        }
    }

    @Test func stringArraysRoundTripIncludingEmpty() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                for array in [[], ["a"], ["premium", "", "ünï", "with,comma", "{braces}"]] as [[String]] {
                    let echoed = try await echo(array, on: connection)
                    #expect(echoed == array)
                }
                let integersBack = try await echo([Int64(1), -2], on: connection)
                #expect(integersBack == [1, -2])
                let ids = [UUID(), UUID()]
                let idsBack = try await echo(ids, on: connection)
                #expect(idsBack == ids)
            }
        }
    }

    /// Arrays of optionals carry NULL elements both ways, so a batch can bind a nullable column
    /// as one array; an array of a type without NULL refuses a NULL element.
    @Test func arraysOfOptionalsCarryNullElements() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let texts: [String?] = [nil, "a", nil, ""]
                #expect(try await echo(texts, on: connection) == texts)
                let dates: [Date?] = [Date(timeIntervalSince1970: 1_764_064_800.123), nil]
                #expect(try await echo(dates, on: connection) == dates)
                let allNil: [Int32?] = [nil, nil]
                #expect(try await echo(allNil, on: connection) == allNil)
                let row = try #require(try await connection.query(
                    "SELECT array_position(\(texts), NULL), cardinality(\(texts)), \([UUID?]([nil, UUID()]))[1] IS NULL"
                ).first)
                let (position, count, firstIsNull) = try row.decode((Int32?, Int32, Bool).self)
                #expect(position == 1 && count == 4 && firstIsNull)

                let nullInside = try #require(try await connection.query("SELECT ARRAY['a', NULL]::text[]").first)
                #expect(throws: (any Error).self) { try nullInside.decode([String].self) }
                #expect(try nullInside.decode([String?].self) == ["a", nil])
            }
        }
    }

    @Test func nilOfEveryTypeIsBoundAsTypedNull() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let row = try #require(try await connection.query("""
                    SELECT \(String?.none), \(Int?.none), \(Int64?.none), \(Int32?.none), \(Bool?.none),
                           \(Double?.none), \(UUID?.none), \(Date?.none), \(Data?.none), \([String]?.none),
                           pg_typeof(\(Int32?.none))::text
                    """).first)
                let values = try row.decode((String?, Int?, Int64?, Int32?, Bool?, Double?, UUID?, Date?, Data?, [String]?, String).self)
                #expect(values.0 == nil && values.1 == nil && values.2 == nil && values.3 == nil && values.4 == nil)
                #expect(values.5 == nil && values.6 == nil && values.7 == nil && values.8 == nil && values.9 == nil)
                #expect(values.10 == "integer")
            }
        }
    }

    @Test func valuesSurviveStorageInTypedColumns() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                try await connection.execute("""
                    CREATE TABLE everything (s text, i bigint, n integer, b boolean, d double precision,
                                             u uuid, t timestamptz, bytes bytea, tags text[], missing text)
                    """)
                let uuid = UUID()
                let date = Date(timeIntervalSince1970: 1_234_567_890.5)
                let inserted = try await connection.execute("""
                    INSERT INTO everything VALUES (\("ß"), \(7), \(Int32(-3)), \(true), \(2.5), \(uuid), \(date),
                                                   \(Data([0, 1, 255])), \(["a", "b"]), \(String?.none))
                    """)
                #expect(inserted == 1)
                let row = try #require(try await connection.query("SELECT * FROM everything").first)
                let values = try row.decode((String, Int, Int32, Bool, Double, UUID, Date, Data, [String], String?).self)
                #expect(values.0 == "ß" && values.1 == 7 && values.2 == -3 && values.3 && values.4 == 2.5)
                #expect(values.5 == uuid && values.6 == date && values.7 == Data([0, 1, 255]))
                #expect(values.8 == ["a", "b"] && values.9 == nil)
                #expect(try row.decode(column: "u", as: UUID.self) == uuid)
            }
        }
    }

    @Test func injectionAttemptStaysData() async throws {
        let hostile = "x'); DROP TABLE victims; --"
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                try await connection.execute("CREATE TABLE victims (name text)")
                try await connection.execute("INSERT INTO victims (name) VALUES (\(hostile))")
                let rows = try await connection.query("SELECT name FROM victims WHERE name = \(hostile)")
                #expect(rows.count == 1)
                #expect(try rows[0].decode(String.self) == hostile)
                let stillThere = try await connection.query("SELECT count(*) FROM victims")
                #expect(try stillThere[0].decode(Int.self) == 1)
            }
        }
    }

    @Test func numericAndOtherIntegerWidthsDecodeIntoSwiftNumbers() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let row = try #require(try await connection.query(
                    "SELECT 12345678901234::numeric, -2.5::numeric, 7::smallint, 1.5::real, sum(x) FROM (VALUES (1::bigint), (2)) v(x)"
                ).first)
                let (big, fraction, small, real, sum) = try row.decode((Int64, Double, Int, Double, Int).self)
                #expect(big == 12_345_678_901_234)
                #expect(fraction == -2.5)
                #expect(small == 7)
                #expect(real == 1.5)
                #expect(sum == 3)
            }
        }
    }

    @Test func rawRepresentableEnumsBindAndDecodeByRawValue() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let row = try #require(try await connection.query("SELECT \(Tier.gold)").first)
                let tier = try row.decode(Tier.self)
                #expect(tier == Tier.gold)
                let unknown = try #require(try await connection.query("SELECT 'platinum'::text").first)
                #expect(throws: PostgresDecodingError.self) { try unknown.decode(Tier.self) }
            }
        }
    }
}

enum Tier: String, Equatable, PostgresEncodable, PostgresDecodable {
    case silver, gold
}

/// A result is copied out of libpq into one buffer sized from every cell's length: each cell,
/// NULL, empty or large, in any row, comes back as it was sent.
@Suite struct ResultCopyTests {
    @Test func everyCellOfAManyRowResultComesBackByteForByte() async throws {
        // Lengths cycle through NULL, empty, short and long, so NULL and empty cells sit between
        // non-empty ones in every row and column, and one cell is 100 KB.
        let texts: [String?] = (0..<3_000).map { row in
            switch row % 5 {
            case 0: nil
            case 1: ""
            case 2: "row \(row)"
            case 3: String(repeating: "é", count: row % 700)
            default: row == 2_999 ? String(repeating: "x", count: 100_000) : "ü\(row)"
            }
        }
        let blobs: [Data?] = texts.map { $0.map { Data($0.utf8.reversed()) } }
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                let rows = try await connection.query(
                    "SELECT n, t, b FROM unnest(\(Array(texts.indices)), \(texts), \(blobs)) WITH ORDINALITY AS u(n, t, b, o) ORDER BY o")
                #expect(rows.count == texts.count)
                for (index, row) in rows.enumerated() {
                    #expect(try row.decodeColumn(at: 0, as: Int.self) == index)
                    #expect(try row.decodeColumn(at: 1, as: String?.self) == texts[index])
                    #expect(try row.decodeColumn(at: 2, as: Data?.self) == blobs[index])
                }
            }
        }
    }
}
