import Foundation
import PostgresLibPQ
import StoreSyncCore

/// SQL over `renewal_infos`: the latest signed renewal info per subscription chain.
struct RenewalInfoRepository: Sendable {
    /// The select list, in the order ``renewalInfo(_:startingAt:)`` decodes.
    static let columns: StaticString = """
        original_transaction_id, auto_renew_product_id, product_id, auto_renew_status, is_in_billing_retry,
        grace_period_expires, expiration_intent, environment, signed_date
        """

    /// Every stored column but `account_id`, in insert order.
    private static let storedColumns: StaticString = """
        original_transaction_id, signed_date, auto_renew_product_id, product_id, auto_renew_status,
        is_in_billing_retry, grace_period_expires, expiration_intent, environment, signed_renewal_info,
        jws_header_sha256, jws_payload, jws_signature
        """

    /// An incoming row replaces the stored one.
    private static let replaceStored: StaticString = """
        ON CONFLICT (account_id, original_transaction_id) DO UPDATE
        SET signed_date = EXCLUDED.signed_date, auto_renew_product_id = EXCLUDED.auto_renew_product_id,
            product_id = EXCLUDED.product_id, auto_renew_status = EXCLUDED.auto_renew_status,
            is_in_billing_retry = EXCLUDED.is_in_billing_retry, grace_period_expires = EXCLUDED.grace_period_expires,
            expiration_intent = EXCLUDED.expiration_intent, environment = EXCLUDED.environment,
            signed_renewal_info = EXCLUDED.signed_renewal_info, jws_header_sha256 = EXCLUDED.jws_header_sha256,
            jws_payload = EXCLUDED.jws_payload, jws_signature = EXCLUDED.jws_signature
        """

    func renewalInfo(of accountId: UUID, chain originalTransactionId: String, on connection: PostgresConnection)
        async throws -> RenewalInfo?
    {
        try await renewalInfos(of: [(originalTransactionId, accountId)], on: connection)[accountId]?[originalTransactionId]
    }

    /// Writes the renewal info the ledger's merge chose as the chain's latest.
    func store(_ info: RenewalInfo, for accountId: UUID, on connection: PostgresConnection) async throws {
        try await store([(accountId, info)], on: connection)
    }

    /// Writes renewal infos (several accounts at once) in one statement, each replacing the
    /// stored one of its account and chain; at most one per account and chain. The signed
    /// texts are stored as ``SignedTextColumns`` splits them, their headers in the same statement.
    func store(_ infos: [(accountId: UUID, info: RenewalInfo)], on connection: PostgresConnection) async throws {
        guard !infos.isEmpty else { return }
        let renewals = infos.map(\.info)
        let signed = SignedTextColumns(renewals.map(\.signedRenewalInfo))
        try await connection.execute(
            """
            WITH headers AS (
                INSERT INTO jws_headers (header_sha256, header)
                SELECT * FROM unnest(\(signed.distinctHeaderDigests), \(signed.distinctHeaders))
                ON CONFLICT DO NOTHING
            )
            INSERT INTO renewal_infos (account_id, \(unescaped: Self.storedColumns))
            SELECT * FROM unnest(
                \(infos.map(\.accountId)), \(renewals.map(\.originalTransactionId)), \(renewals.map(\.signedDate)),
                \(renewals.map(\.autoRenewProductId)), \(renewals.map(\.productId)), \(renewals.map(\.autoRenewStatus)),
                \(renewals.map(\.isInBillingRetryPeriod)), \(renewals.map(\.gracePeriodExpiresDate)),
                \(renewals.map(\.expirationIntent)), \(renewals.map(\.environment.rawValue)), \(signed.wholeTexts),
                \(signed.headerDigests), \(signed.payloads), \(signed.signatures))
            \(unescaped: Self.replaceStored)
            """)
    }

    /// The renewal infos of these purchases, each of the account paired with it, by account
    /// and purchase.
    func renewalInfos(of chains: [(originalTransactionId: String, accountId: UUID)], on connection: PostgresConnection)
        async throws -> [UUID: [String: RenewalInfo]]
    {
        guard !chains.isEmpty else { return [:] }
        let rows = try await connection.query(
            """
            SELECT wanted.holder, \(unescaped: Self.columns)
            FROM unnest(\(chains.map(\.originalTransactionId)), \(chains.map(\.accountId))) AS wanted (chain, holder)
            JOIN renewal_infos ON renewal_infos.account_id = wanted.holder
                AND renewal_infos.original_transaction_id = wanted.chain
            """)
        var infos: [UUID: [String: RenewalInfo]] = [:]
        for row in rows {
            let info = try Self.renewalInfo(row, startingAt: 1)
            infos[try row.decodeColumn(at: 0, as: UUID.self), default: [:]][info.originalTransactionId] = info
        }
        return infos
    }

    /// Copies the renewal info of each moving purchase to the account it goes to, keeping the
    /// later one where that account already has one.
    func copy(_ moves: [(originalTransactionId: String, from: UUID, to: UUID)], on connection: PostgresConnection)
        async throws
    {
        try await connection.execute(
            """
            INSERT INTO renewal_infos (account_id, \(unescaped: Self.storedColumns))
            SELECT moves.target, \(unescaped: Self.storedColumns)
            FROM unnest(\(moves.map(\.originalTransactionId)), \(moves.map(\.from)), \(moves.map(\.to)))
                AS moves (chain, source, target)
            JOIN renewal_infos ON renewal_infos.account_id = moves.source AND renewal_infos.original_transaction_id = moves.chain
            \(unescaped: Self.replaceStored)
            WHERE EXCLUDED.signed_date > renewal_infos.signed_date
            """)
    }

    /// Decodes ``columns`` from a row, at `first` onwards.
    static func renewalInfo(_ row: PostgresRow, startingAt first: Int = 0) throws -> RenewalInfo {
        var columns = row.columns(from: first)
        return RenewalInfo(
            originalTransactionId: try columns.next(), autoRenewProductId: try columns.next(),
            productId: try columns.next(), autoRenewStatus: try columns.next(), isInBillingRetryPeriod: try columns.next(),
            gracePeriodExpiresDate: try columns.next(), expirationIntent: try columns.next(),
            environment: try TransactionRow.column("environment", columns.next()), signedDate: try columns.next())
    }
}
