import Foundation
import PostgresLibPQ

/// What the server's tables hold and take on disk at one moment: rows and bytes of each table
/// (heap, TOAST and indexes), and the whole database's size.
struct DatabaseFootprint: Sendable {
    struct Table: Sendable {
        let name: String
        let rows: Int
        /// Heap, TOAST and indexes (`pg_total_relation_size`).
        let bytes: Int
        let heapBytes: Int
        let toastBytes: Int
        let indexBytes: Int
    }

    let tables: [Table]
    let databaseBytes: Int

    /// The table named `name`, if the schema has it.
    func table(_ name: String) -> Table? { tables.first { $0.name == name } }

    /// Rows and bytes of every table.
    var totalBytes: Int { tables.map(\.bytes).reduce(0, +) }

    /// Every table of the server's schema, counted exactly (a statistics estimate would do for
    /// sizes but not for the rows a delta divides by).
    static func read(from database: PostgresConfiguration) async throws -> DatabaseFootprint {
        try await BenchDatabase.withConnection(to: database) { connection in
            let rows = try await connection.query(
                """
                SELECT c.relname::text, pg_total_relation_size(c.oid), pg_relation_size(c.oid),
                       COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0), pg_indexes_size(c.oid)
                FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname <> 'schema_migrations'
                ORDER BY pg_total_relation_size(c.oid) DESC, c.relname
                """)
            var tables: [Table] = []
            for row in rows {
                let (name, total, heap, toast, indexes) = try row.decode((String, Int64, Int64, Int64, Int64).self)
                let identifier = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                let count = try await BenchDatabase.number("SELECT count(*) FROM \(identifier)", on: connection)
                tables.append(Table(
                    name: name, rows: count, bytes: Int(total), heapBytes: Int(heap), toastBytes: Int(toast),
                    indexBytes: Int(indexes)))
            }
            let size = try await BenchDatabase.number("SELECT pg_database_size(current_database())", on: connection)
            return DatabaseFootprint(tables: tables, databaseBytes: size)
        }
    }

    /// What was added since `earlier`, table by table (tables new since then count whole).
    func growth(since earlier: DatabaseFootprint) -> DatabaseFootprint {
        DatabaseFootprint(
            tables: tables.map { table in
                let before = earlier.table(table.name)
                return Table(
                    name: table.name, rows: table.rows - (before?.rows ?? 0), bytes: table.bytes - (before?.bytes ?? 0),
                    heapBytes: table.heapBytes - (before?.heapBytes ?? 0),
                    toastBytes: table.toastBytes - (before?.toastBytes ?? 0),
                    indexBytes: table.indexBytes - (before?.indexBytes ?? 0))
            },
            databaseBytes: databaseBytes - earlier.databaseBytes)
    }

    /// Bytes of all tables per row of `transactions` (for a growth: per transaction added).
    var bytesPerTransaction: Double? {
        guard let rows = table("transactions")?.rows, rows > 0 else { return nil }
        return Double(totalBytes) / Double(rows)
    }

    /// Bytes of all tables per account.
    var bytesPerAccount: Double? {
        guard let rows = table("accounts")?.rows, rows > 0 else { return nil }
        return Double(totalBytes) / Double(rows)
    }
}
