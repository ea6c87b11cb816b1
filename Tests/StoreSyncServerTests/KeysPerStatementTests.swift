import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// The account keys of the tables written in bulk are kept by statement triggers (migration
/// 0011), not foreign keys: every guarantee a key gave must hold, each tested here against the
/// statement that would break it, and the two races a key's row lock decides.
@Suite struct KeysPerStatementTests {
    /// A write that names a row its key's table does not hold.
    enum RefusedWrite: String, CaseIterable, Sendable {
        case transactionOfNoAccount, transactionsOfALiveAndAMissingAccount, transactionMovedToNoAccount
        case renewalInfoOfNoAccount, ownerRowOfNoAccount, purchaseMovedToNoAccount
        case eventOfNoAccount, deliveryOfNoEvent

        var key: String {
            switch self {
            case .transactionOfNoAccount, .transactionsOfALiveAndAMissingAccount, .transactionMovedToNoAccount:
                "transactions_account_id_fkey"
            case .renewalInfoOfNoAccount: "renewal_infos_account_id_fkey"
            case .ownerRowOfNoAccount, .purchaseMovedToNoAccount: "purchase_owners_account_id_fkey"
            case .eventOfNoAccount: "events_account_id_fkey"
            case .deliveryOfNoEvent: "webhook_deliveries_account_id_event_id_fkey"
            }
        }

        func statement(holder: UUID, missing: UUID) -> PostgresQuery {
            switch self {
            case .transactionOfNoAccount:
                """
                INSERT INTO transactions
                SELECT (jsonb_populate_record(held, jsonb_build_object('account_id', \(missing)::uuid))).*
                FROM transactions AS held WHERE account_id = \(holder)
                """
            case .transactionsOfALiveAndAMissingAccount:
                """
                INSERT INTO transactions
                SELECT (jsonb_populate_record(held, jsonb_build_object('transaction_id', held.transaction_id || '-copy'))).*
                FROM transactions AS held WHERE account_id = \(holder)
                UNION ALL
                SELECT (jsonb_populate_record(held, jsonb_build_object('account_id', \(missing)::uuid))).*
                FROM transactions AS held WHERE account_id = \(holder)
                """
            case .transactionMovedToNoAccount:
                "UPDATE transactions SET account_id = \(missing) WHERE account_id = \(holder)"
            case .renewalInfoOfNoAccount:
                """
                INSERT INTO renewal_infos (account_id, original_transaction_id, signed_date, auto_renew_status, environment)
                VALUES (\(missing), 'refused', now(), true, 'sandbox')
                """
            case .ownerRowOfNoAccount:
                "INSERT INTO purchase_owners (original_transaction_id, account_id, environment) VALUES ('refused', \(missing), 'sandbox')"
            case .purchaseMovedToNoAccount:
                "UPDATE purchase_owners SET account_id = \(missing) WHERE account_id = \(holder)"
            case .eventOfNoAccount:
                """
                INSERT INTO events (account_id, kind, original_transaction_id, reason)
                VALUES (\(missing), 'purchaseClaimed', 'refused', 'test')
                """
            case .deliveryOfNoEvent:
                "INSERT INTO webhook_deliveries (account_id, event_id) VALUES (\(holder), -1)"
            }
        }
    }

    @Test(arguments: RefusedWrite.allCases)
    func aRowNamingNoRowOfItsKeysTableIsRefusedAndNothingIsWritten(write: RefusedWrite) async throws {
        try await withServer { server in
            let holder = try await Self.accountHoldingAPurchase(on: server)
            let before = try await server.tableCounts()
            let holdersRows = try await server.rows(of: holder)

            let error = try await #require(throws: PostgresError.self) {
                try await server.database.withTransaction {
                    try await $0.execute(write.statement(holder: holder, missing: UUID()))
                }
            }

            #expect(error.code == .foreignKeyViolation)
            #expect(error.constraintName == write.key)
            #expect(try await server.tableCounts() == before)
            #expect(try await server.rows(of: holder) == holdersRows, "a refused move leaves the rows where they were")
        }
    }

    @Test func aDeletedVersionRowTakesItsAccountsTransactionsAndRenewalInfosWithIt() async throws {
        try await withServer { server in
            let deleted = try await Self.accountHoldingAPurchase(on: server)
            let kept = try await Self.accountHoldingAPurchase(on: server)
            let keptRows = try await server.rows(of: kept)

            try await server.database.withTransaction { connection in
                try await connection.execute("UPDATE purchase_owners SET account_id = NULL WHERE account_id = \(deleted)")
                try await connection.execute("DELETE FROM account_versions WHERE account_id = \(deleted)")
            }

            let left = try await server.rows(of: deleted)
            #expect(left["transactions"] == 0 && left["renewal_infos"] == 0 && left["sessions"] == 0, "\(left)")
            #expect(left["events"] == 1, "the audit trail stays")
            #expect(try await server.rows(of: kept) == keptRows)
            #expect(try await server.orphanRows() == 0)
        }
    }

    /// A row something refers to (RESTRICT), and the statement that deletes it.
    enum RefusedDeletion: String, CaseIterable, Sendable {
        /// An owner row names the account.
        case versionRowOfAnOwner
        /// Events name the account, deleted already (its version row gone, its row erased).
        case accountEventsName

        var key: String {
            switch self {
            case .versionRowOfAnOwner: "purchase_owners_account_id_fkey"
            case .accountEventsName: "events_account_id_fkey"
            }
        }

        func statement(account: UUID) -> PostgresQuery {
            switch self {
            case .versionRowOfAnOwner: "DELETE FROM account_versions WHERE account_id = \(account)"
            case .accountEventsName: "DELETE FROM accounts WHERE account_id = \(account)"
            }
        }
    }

    @Test(arguments: RefusedDeletion.allCases)
    func aRowOthersReferToIsNotDeleted(deletion: RefusedDeletion) async throws {
        try await withServer { server in
            let account = try await Self.accountHoldingAPurchase(on: server)
            if deletion == .accountEventsName {
                try await server.database.withTransaction { connection in
                    try await connection.execute("UPDATE purchase_owners SET account_id = NULL WHERE account_id = \(account)")
                    try await connection.execute("DELETE FROM account_versions WHERE account_id = \(account)")
                }
            }
            let before = try await server.tableCounts()

            let error = try await #require(throws: PostgresError.self) {
                try await server.database.withConnection { try await $0.execute(deletion.statement(account: account)) }
            }

            #expect(error.code == .foreignKeyViolation)
            #expect(error.constraintName == deletion.key)
            #expect(try await server.tableCounts() == before)
        }
    }

    @Test(arguments: ["accounts", "account_versions"])
    func anAccountsIdNeverChanges(table: String) async throws {
        try await withServer { server in
            let account = try await Self.accountHoldingAPurchase(on: server)
            let before = try await server.tableCounts()

            let error = try await #require(throws: PostgresError.self) {
                try await server.database.withConnection {
                    try await $0.execute(PostgresQuery(
                        unsafeSQL: "UPDATE \(table) SET account_id = gen_random_uuid() WHERE account_id = '\(account)'"))
                }
            }

            #expect(error.code == .foreignKeyViolation)
            #expect(try await server.rows(of: account)["account_versions"] == 1)
            #expect(try await server.tableCounts() == before)
        }
    }

    @Test(arguments: ["TRUNCATE account_versions CASCADE", "TRUNCATE accounts CASCADE", "TRUNCATE events"])
    func aTableRowsReferToIsNotTruncated(statement: String) async throws {
        try await withServer { server in
            let account = try await Self.accountHoldingAPurchase(on: server)
            try await server.database.withConnection {
                try await $0.execute(
                    "INSERT INTO webhook_deliveries (account_id, event_id) SELECT account_id, event_id FROM events WHERE account_id = \(account)"
                )
            }
            let before = try await server.tableCounts()

            let error = try await #require(throws: PostgresError.self) {
                try await server.database.withConnection { try await $0.execute(PostgresQuery(unsafeSQL: statement)) }
            }

            #expect(error.code == .featureNotSupported)
            #expect(try await server.tableCounts() == before)
        }
    }

    /// At REPEATABLE READ a deletion's cascade would not see the rows of a writer it waited for.
    @Test func aVersionRowIsDeletedOnlyAtReadCommitted() async throws {
        try await withServer { server in
            let account = try await Self.accountHoldingAPurchase(on: server)
            let before = try await server.tableCounts()

            let error = try await #require(throws: PostgresError.self) {
                try await server.database.withTransaction(isolation: .repeatableRead) { connection in
                    try await connection.execute("UPDATE purchase_owners SET account_id = NULL WHERE account_id = \(account)")
                    try await connection.execute("DELETE FROM account_versions WHERE account_id = \(account)")
                }
            }

            #expect(error.code == PostgresError.Code(raw: "55000"))
            #expect(try await server.tableCounts() == before)
        }
    }

    /// A writer holds the account's version row (FOR KEY SHARE) from its statement to its commit:
    /// the deletion waits for it, then its cascade takes the writer's rows too.
    @Test func aDeletionWaitsForAWriterAndTakesItsRows() async throws {
        try await withServer { server in
            let account = try await Self.accountHoldingAPurchase(on: server)

            let deleting = try await server.database.withTransaction { writer in
                try await writer.execute(Self.copiesOfTransactions(of: account))
                let deleting = Task {
                    try await Self.withOwnConnection(to: server) { connection in
                        try await connection.execute("UPDATE purchase_owners SET account_id = NULL WHERE account_id = \(account)")
                        try await connection.execute("DELETE FROM account_versions WHERE account_id = \(account)")
                    }
                }
                #expect(try await eventually { try await server.someoneWaitsForALock() })
                return deleting
            }
            try await deleting.value

            #expect(try await server.rows(of: account)["transactions"] == 0)
            #expect(try await server.orphanRows() == 0)
        }
    }

    /// A writer behind a deletion that commits first finds the account gone and writes nothing.
    @Test func aWriterBehindADeletionFindsTheAccountGone() async throws {
        try await withServer { server in
            let account = try await Self.accountHoldingAPurchase(on: server)

            let writing = try await server.database.withTransaction { deleter in
                try await deleter.execute("UPDATE purchase_owners SET account_id = NULL WHERE account_id = \(account)")
                try await deleter.execute("DELETE FROM account_versions WHERE account_id = \(account)")
                let writing = Task {
                    try await Self.withOwnConnection(to: server) {
                        try await $0.execute(Self.copiesOfTransactions(of: account))
                    }
                }
                #expect(try await eventually { try await server.someoneWaitsForALock() })
                return writing
            }

            let error = try await #require(throws: PostgresError.self) { try await writing.value }
            #expect(error.code == .foreignKeyViolation)
            #expect(error.constraintName == "transactions_account_id_fkey")
            #expect(try await server.rows(of: account)["transactions"] == 0)
            #expect(try await server.orphanRows() == 0)
        }
    }

    /// A signed-up account that bought a purchase: a transaction, its owner row, an event, and a
    /// renewal info written directly (no route stores one without a subscription's signed info).
    private static func accountHoldingAPurchase(on server: TestApp) async throws -> UUID {
        let account = try await server.signUp()
        _ = try await server.buy(TestPurchases.record(purchased: server.clock.now()), token: account.token)
        try await server.database.withConnection {
            try await $0.execute(
                """
                INSERT INTO renewal_infos (account_id, original_transaction_id, signed_date, auto_renew_status, environment)
                VALUES (\(account.accountId), \(TestPurchases.nextId()), now(), true, 'sandbox')
                """)
        }
        return account.accountId
    }

    /// Copies of an account's transactions under new ids, for the account itself.
    private static func copiesOfTransactions(of account: UUID) -> PostgresQuery {
        """
        INSERT INTO transactions
        SELECT (jsonb_populate_record(held, jsonb_build_object('transaction_id', held.transaction_id || '-copy'))).*
        FROM transactions AS held WHERE account_id = \(account)
        """
    }

    /// A transaction on a connection of its own: the test's pool has two, and a race needs both
    /// parties and a third connection to watch them.
    private static func withOwnConnection(
        to server: TestApp, _ body: (PostgresConnection) async throws -> Void
    ) async throws {
        let pool = ConnectionPool(configuration: server.setup.database, size: 1, logger: TestCluster.logger)
        do {
            try await pool.withTransaction(body)
        } catch {
            await pool.shutdown()
            throw error
        }
        await pool.shutdown()
    }
}
