import Foundation
import PostgresLibPQ
import StoreSyncCore

/// The key that makes a transaction version unique within an account.
struct VersionKey: Hashable, Sendable {
    let accountId: UUID
    let transactionId: String
    let signedDate: Int64
    let evidence: String

    init(accountId: UUID, record: TransactionRecord) {
        self.accountId = accountId
        transactionId = record.transactionId
        signedDate = record.signedDate.millisecondsSince1970
        evidence = record.evidence.kind
    }

    init(accountId: UUID, transactionId: String, signedDate: Date, evidence: String) {
        self.accountId = accountId
        self.transactionId = transactionId
        self.signedDate = signedDate.millisecondsSince1970
        self.evidence = evidence
    }
}

/// SQL over `transactions` and `renewal_infos`: the versions each account holds.
struct TransactionRepository: Sendable {
    /// The account's ledger: the merge of every version it holds, and its renewal infos.
    /// The signed JWS stays in the database; snapshots never carry it.
    ///
    /// Read by the lookup's statement, versions and renewal infos in one round trip: a restore
    /// reads the ledger again after writing it, inside its transaction, where each round trip
    /// is one more wait for a busy PostgreSQL. An account without its version row (being
    /// deleted) holds nothing.
    func ledger(of accountId: UUID, on connection: PostgresConnection) async throws -> Ledger {
        try await LookupQuery.run([accountId], on: connection)[accountId]?.ledger ?? Ledger()
    }

    /// Versions written by one statement at most. A statement's parameters pass through
    /// libpq's send buffer, which grows to the largest statement a connection ever sent and
    /// never shrinks: ten thousand signed versions in one statement would leave every pooled
    /// connection that carried such a restore holding tens of megabytes for the process's life.
    static let versionsPerStatement = 1_000

    /// Stores versions (several accounts at once); returns the keys that were new. A version
    /// already stored conflicts and is left unchanged: re-delivery is idempotent by constraint.
    ///
    /// - Parameters:
    ///   - versions: The versions and the account each goes to; a text that carries its digest
    ///     (``SignedTextSplitter``) is not hashed again.
    ///   - encoded: The statements encoded ahead for what may be these versions
    ///     (``encodeInsert(_:)``): used when they are exactly these, else encoded now.
    ///   - connection: Where to write.
    func insert(
        _ versions: [(accountId: UUID, record: TransactionRecord)], encoded: EncodedInsert? = nil,
        on connection: PostgresConnection
    ) async throws -> Set<VersionKey> {
        let statements = encoded.flatMap { $0.statements(for: versions) } ?? Self.encodeInsert(versions).statements
        var inserted: Set<VersionKey> = []
        for statement in statements {
            inserted.formUnion(try await connection.query(statement).map { row in
                let (accountId, transactionId, signedDate, evidence) = try row.decode((UUID, String, Date, String).self)
                return VersionKey(accountId: accountId, transactionId: transactionId, signedDate: signedDate, evidence: evidence)
            })
        }
        return inserted
    }

    /// The statements storing `versions`, encoded and not yet sent.
    ///
    /// Encoding is the CPU half of storing: for a thousand signed versions, ~4.5 ms of building
    /// binary arrays (~5 MB of texts) during which PostgreSQL, otherwise idle, waits for the
    /// statement. A sync encodes them while PostgreSQL runs its earlier statements, for the
    /// versions it expects to store (``SyncTransaction``).
    struct EncodedInsert: Sendable {
        fileprivate let versions: [(accountId: UUID, record: TransactionRecord)]
        fileprivate let statements: [PostgresQuery]

        /// The statements, if they store exactly `versions`, in the same order. Records compared
        /// whole: copies of the same record share their strings and text, so this takes well
        /// under a microsecond each.
        fileprivate func statements(for versions: [(accountId: UUID, record: TransactionRecord)]) -> [PostgresQuery]? {
            guard versions.count == self.versions.count else { return nil }
            for position in versions.indices {
                guard versions[position].accountId == self.versions[position].accountId,
                    versions[position].record == self.versions[position].record
                else { return nil }
            }
            return statements
        }
    }

    /// Encodes the statements storing `versions`, at most ``versionsPerStatement`` each.
    static func encodeInsert(_ versions: [(accountId: UUID, record: TransactionRecord)]) -> EncodedInsert {
        let statements = stride(from: 0, to: versions.count, by: versionsPerStatement).map { start in
            insertStatement(versions[start..<min(start + versionsPerStatement, versions.count)])
        }
        return EncodedInsert(versions: versions, statements: statements)
    }

    /// The statement storing at most ``versionsPerStatement`` versions.
    private static func insertStatement(_ versions: ArraySlice<(accountId: UUID, record: TransactionRecord)>) -> PostgresQuery {
        // One binary array per column, zipped by unnest: PostgreSQL takes the values as they
        // are, with nothing to parse (a JSON batch would have it parse every timestamp from
        // text). The JWS travel the same way, split: each distinct header once, inserted in the
        // same statement, and each row's payload and signature as bytes.
        let records = versions.map(\.record)
        let texts = records.map(\.signedText)
        let signed = SignedTextColumns(texts)
        return """
            WITH headers AS (
                INSERT INTO jws_headers (header_sha256, header)
                SELECT * FROM unnest(\(signed.distinctHeaderDigests), \(signed.distinctHeaders))
                ON CONFLICT DO NOTHING
            )
            INSERT INTO transactions (
                account_id, transaction_id, original_transaction_id, product_id, product_type, purchase_date,
                original_purchase_date, expires_date, revocation_date, revocation_reason, is_upgraded,
                ownership_type, environment, app_account_token, quantity, signed_date, subscription_group_id,
                evidence, verified_at, signed_transaction, jws_header_sha256, jws_payload, jws_signature,
                signed_transaction_sha256)
            SELECT * FROM unnest(
                \(versions.map(\.accountId)), \(records.map(\.transactionId)), \(records.map(\.originalTransactionId)),
                \(records.map(\.productId)), \(records.map(\.productType.rawValue)), \(records.map(\.purchaseDate)),
                \(records.map(\.originalPurchaseDate)), \(records.map(\.expiresDate)), \(records.map(\.revocationDate)),
                \(records.map { $0.revocationReason?.rawValue }), \(records.map(\.isUpgraded)),
                \(records.map(\.ownershipType.rawValue)), \(records.map(\.environment.rawValue)),
                \(records.map(\.appAccountToken)), \(records.map(\.quantity)), \(records.map(\.signedDate)),
                \(records.map(\.subscriptionGroupId)), \(records.map(\.evidence.kind)), \(records.map(\.evidence.verifiedAt)),
                \(signed.wholeTexts), \(signed.headerDigests), \(signed.payloads), \(signed.signatures),
                \(texts.map { $0.map(SignedTransactionDigest.bytes(of:)) }))
            ON CONFLICT DO NOTHING
            RETURNING account_id, transaction_id, signed_date, evidence
            """
    }

    /// The versions of one purchase an account holds.
    func chain(_ originalTransactionId: String, of accountId: UUID, on connection: PostgresConnection) async throws
        -> [TransactionRecord]
    {
        try await chains([(originalTransactionId, accountId)], on: connection)[accountId]?[originalTransactionId] ?? []
    }

    /// The accounts that hold any version of the purchase.
    func holders(of originalTransactionId: String, on connection: PostgresConnection) async throws -> [UUID] {
        try await connection.query(
            """
            SELECT DISTINCT account_id FROM transactions
            WHERE original_transaction_id = \(originalTransactionId) ORDER BY account_id
            """
        ).map { try $0.decode(UUID.self) }
    }

    /// The versions of these purchases, each of the account paired with it, by account and
    /// purchase.
    func chains(_ chains: [(originalTransactionId: String, accountId: UUID)], on connection: PostgresConnection)
        async throws -> [UUID: [String: [TransactionRecord]]]
    {
        guard !chains.isEmpty else { return [:] }
        let rows = try await connection.query(
            """
            SELECT wanted.holder, \(unescaped: TransactionRow.columns)
            FROM unnest(\(chains.map(\.originalTransactionId)), \(chains.map(\.accountId))) AS wanted (chain, holder)
            JOIN transactions ON transactions.account_id = wanted.holder AND transactions.original_transaction_id = wanted.chain
            """)
        var versions: [UUID: [String: [TransactionRecord]]] = [:]
        for row in rows {
            let record = try TransactionRow.record(row, startingAt: 1)
            versions[try row.decodeColumn(at: 0, as: UUID.self), default: [:]][record.originalTransactionId, default: []]
                .append(record)
        }
        return versions
    }

    /// Copies every version and the renewal info of each purchase from the account it leaves to
    /// the one it goes to, for all the moves at once.
    func copyChains(_ moves: [(originalTransactionId: String, from: UUID, to: UUID)], on connection: PostgresConnection)
        async throws
    {
        guard !moves.isEmpty else { return }
        try await connection.execute(
            """
            INSERT INTO transactions (
                account_id, transaction_id, original_transaction_id, product_id, product_type, purchase_date,
                original_purchase_date, expires_date, revocation_date, revocation_reason, is_upgraded,
                ownership_type, environment, app_account_token, quantity, signed_date, subscription_group_id,
                evidence, verified_at, signed_transaction, jws_header_sha256, jws_payload, jws_signature,
                signed_transaction_sha256, received_at)
            SELECT moves.target, transaction_id, original_transaction_id, product_id, product_type, purchase_date,
                original_purchase_date, expires_date, revocation_date, revocation_reason, is_upgraded,
                ownership_type, environment, app_account_token, quantity, signed_date, subscription_group_id,
                evidence, verified_at, signed_transaction, jws_header_sha256, jws_payload, jws_signature,
                signed_transaction_sha256, received_at
            FROM unnest(\(moves.map(\.originalTransactionId)), \(moves.map(\.from)), \(moves.map(\.to)))
                AS moves (chain, source, target)
            JOIN transactions ON transactions.account_id = moves.source AND transactions.original_transaction_id = moves.chain
            ON CONFLICT DO NOTHING
            """)
        try await RenewalInfoRepository().copy(moves, on: connection)
    }

    /// Removes each purchase, its versions and renewal info, from the account it left (it lost
    /// it to a transfer), for all the moves at once.
    func deleteChains(_ moves: [(originalTransactionId: String, from: UUID, to: UUID)], on connection: PostgresConnection)
        async throws
    {
        guard !moves.isEmpty else { return }
        for table: StaticString in ["transactions", "renewal_infos"] {
            try await connection.execute(
                """
                DELETE FROM \(unescaped: table)
                USING unnest(\(moves.map(\.originalTransactionId)), \(moves.map(\.from))) AS moves (chain, source)
                WHERE \(unescaped: table).account_id = moves.source AND \(unescaped: table).original_transaction_id = moves.chain
                """)
        }
    }

    /// Every version of a purchase in every account, oldest first, with the account holding it
    /// and the exact text of its JWS, when it has one.
    func history(of originalTransactionId: String, on connection: PostgresConnection) async throws
        -> [(accountId: UUID, record: TransactionRecord)]
    {
        try await connection.query(
            """
            SELECT \(unescaped: TransactionRow.columns), account_id,
                coalesce(signed_transaction, storesync_jws(jws_header_sha256, jws_payload, jws_signature)) AS jws
            FROM transactions
            WHERE original_transaction_id = \(originalTransactionId) ORDER BY signed_date, transaction_id, account_id
            """
        ).map { row in
            var record = try TransactionRow.record(row)
            record.signedTransaction = try row.decode(column: "jws", as: String?.self)
            return (try row.decode(column: "account_id", as: UUID.self), record)
        }
    }
}
