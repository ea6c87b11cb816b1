import PostgresLibPQ
import PostgresLibPQTesting
import Testing

@Suite struct PreparedStatementTests {
    @Test func statementIsPreparedOnceAndReused() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                for value in 0..<5 {
                    #expect(try #require(try await connection.query("SELECT \(value) + 1").first).decode(Int.self) == value + 1)
                }
                let prepared = try #require(try await connection.query("SELECT count(*) FROM pg_prepared_statements WHERE statement = 'SELECT $1 + 1'").first)
                #expect(try prepared.decode(Int.self) == 1)
            }
        }
    }

    @Test func stalePlanAfterASchemaChangeIsPreparedAgain() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                try await connection.execute("CREATE TABLE widgets (id integer)")
                try await connection.execute("INSERT INTO widgets VALUES (\(Int32(1)))")
                let before = try await connection.query("SELECT * FROM widgets WHERE id = \(Int32(1))")
                #expect(before.columns == ["id"])
                try await connection.execute("ALTER TABLE widgets ADD COLUMN name text DEFAULT 'w'")
                let after = try await connection.query("SELECT * FROM widgets WHERE id = \(Int32(1))")
                #expect(after.columns == ["id", "name"])
                let (id, name) = try after[0].decode((Int32, String).self)
                #expect(id == 1 && name == "w")
            }
        }
    }

    @Test func cacheEvictsTheLeastRecentlyUsedStatementWhenFull() async throws {
        try await TestCluster.withPool(size: 1, configure: { $0.preparedStatementCacheSize = 2 }) { pool in
            try await pool.withConnection { connection in
                try await connection.execute("SELECT \(1)::int + 1")
                try await connection.execute("SELECT \(1)::int + 2")
                try await connection.execute("SELECT \(1)::int + 3")
                try await connection.execute("SELECT \(1)::int + 1")
                let prepared = try await connection.query("SELECT statement FROM pg_prepared_statements ORDER BY statement")
                let statements = try prepared.map { try $0.decode(String.self) }
                #expect(statements == ["SELECT $1::int + 1", "SELECT $1::int + 3"])
            }
        }
    }
}
