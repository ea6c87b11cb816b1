public import Foundation
import PostgresLibPQ

/// Reads the application's tables directly, for "what did the database end up with" and "nothing
/// changed" checks.
extension TestStoreSync {
    /// The tables StoreSync writes.
    public static var tables: [StaticString] {
        [
            "accounts", "account_versions", "sessions", "transactions", "renewal_infos", "purchase_owners",
            "unclaimed_versions", "notifications", "events", "products", "webhook_deliveries", "jws_headers",
        ]
    }

    /// Rows of a table.
    ///
    /// - Parameter table: One of ``tables``.
    /// - Returns: The row count.
    /// - Throws: Database errors.
    public func count(_ table: StaticString) async throws -> Int {
        try await database.withConnection { connection in
            try await connection.query("SELECT count(*)::bigint FROM \(unescaped: table)").first!.decode(Int.self)
        }
    }

    /// Row counts of every table StoreSync writes, by table name.
    ///
    /// - Returns: Table name → rows.
    /// - Throws: Database errors.
    public func tableCounts() async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in Self.tables { counts["\(table)"] = try await count(table) }
        return counts
    }

    /// Whether a backend on this instance's database is waiting for a lock: how a test sees that
    /// one transaction blocks another without deciding it by timing.
    ///
    /// - Returns: `true` while some lock is requested and not granted.
    /// - Throws: Database errors.
    public func someoneWaitsForALock() async throws -> Bool {
        try await backendsWaitingForALock() > 0
    }

    /// How many backends on this instance's database wait for a lock (each counted once,
    /// whatever number of locks it waits for).
    ///
    /// - Returns: The number of waiting backends.
    /// - Throws: Database errors.
    public func backendsWaitingForALock() async throws -> Int {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT count(DISTINCT pid)::bigint FROM pg_locks JOIN pg_stat_activity USING (pid)
                WHERE NOT granted AND datname = current_database()
                """
            ).first!.decode(Int.self)
        }
    }

    /// Version numbers of every account.
    ///
    /// - Returns: Account id → version.
    /// - Throws: Database errors.
    public func versions() async throws -> [UUID: Int64] {
        try await database.withConnection { connection in
            var versions: [UUID: Int64] = [:]
            for row in try await connection.query("SELECT account_id, version FROM account_versions") {
                let (id, version) = try row.decode((UUID, Int64).self)
                versions[id] = version
            }
            return versions
        }
    }

    /// The account that owns a purchase.
    ///
    /// - Parameter originalTransactionId: The purchase.
    /// - Returns: The owner; `nil` when no account holds it (or it was never seen).
    /// - Throws: Database errors.
    public func owner(of originalTransactionId: String) async throws -> UUID? {
        try await database.withConnection { connection -> UUID? in
            guard let row = try await connection.query(
                "SELECT account_id FROM purchase_owners WHERE original_transaction_id = \(originalTransactionId)"
            ).first else { return nil }
            return try row.decode(UUID?.self)
        }
    }

    /// The accounts holding any version of a purchase, in id order.
    ///
    /// - Parameter originalTransactionId: The purchase.
    /// - Returns: The holders' ids.
    /// - Throws: Database errors.
    public func holders(of originalTransactionId: String) async throws -> [UUID] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT DISTINCT account_id FROM transactions
                WHERE original_transaction_id = \(originalTransactionId) ORDER BY account_id
                """
            ).map { try $0.decode(UUID.self) }
        }
    }

    /// Event kinds of a purchase, oldest first, with the account each was written for.
    ///
    /// - Parameter originalTransactionId: The purchase.
    /// - Returns: `(account, kind)` pairs in the order they were appended.
    /// - Throws: Database errors.
    public func events(of originalTransactionId: String) async throws -> [(account: UUID, kind: String)] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT account_id, kind FROM events WHERE original_transaction_id = \(originalTransactionId)
                ORDER BY event_id
                """
            ).map { row in
                let (account, kind) = try row.decode((UUID, String).self)
                return (account, kind)
            }
        }
    }
}
