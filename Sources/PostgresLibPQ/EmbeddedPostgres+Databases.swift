internal import CLibPQ
internal import Foundation

extension EmbeddedPostgres {
    /// Creates a database, optionally as a copy of a template database.
    ///
    /// A template must have no open connections while it is copied.
    ///
    /// - Parameters:
    ///   - name: The new database's name (1 to 63 bytes).
    ///   - template: The database to copy; nil for PostgreSQL's default `template1`.
    /// - Throws: ``EmbeddedPostgresError/invalidDatabaseName(_:)``, or ``PostgresError``
    ///   (``PostgresError/Code/duplicateDatabase`` when it exists).
    public func createDatabase(named name: String, template: String? = nil) async throws {
        var sql = "CREATE DATABASE \(try Self.quotedIdentifier(name))"
        if let template { sql += " TEMPLATE \(try Self.quotedIdentifier(template))" }
        try await runAdministrativeStatement(sql)
    }

    /// Drops a database if it exists, disconnecting its sessions first.
    ///
    /// - Parameter name: The database's name.
    /// - Throws: ``EmbeddedPostgresError/invalidDatabaseName(_:)`` or ``PostgresError``.
    public func dropDatabase(named name: String) async throws {
        try await runAdministrativeStatement("DROP DATABASE IF EXISTS \(try Self.quotedIdentifier(name)) WITH (FORCE)")
    }

    /// Quotes an identifier for the few statements that cannot take parameters (CREATE DATABASE).
    static func quotedIdentifier(_ name: String) throws -> String {
        guard !name.isEmpty, name.utf8.count <= 63, !name.utf8.contains(0) else {
            throw EmbeddedPostgresError.invalidDatabaseName(name)
        }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Runs one statement on a short-lived superuser connection, on a thread of its own
    /// (CREATE DATABASE waits for a checkpoint: seconds on a loaded machine).
    private func runAdministrativeStatement(_ sql: String) async throws {
        let configuration = self.configuration
        try await DedicatedThread.run(named: "storesync administrative statement") {
            let handle = try LibPQHandle.connect(configuration)
            guard let result = PQexec(handle.pointer, sql) else {
                throw PostgresError.client(.connectionLost, handle.errorMessage, query: sql)
            }
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else {
                throw LibPQResult.error(from: result, query: sql)
            }
        }
    }
}
