import Foundation
import PostgresLibPQ
import StoreSyncCore

/// The entitlement lookup of one or more accounts in one round trip: each account's version,
/// every transaction version it holds and the renewal info of each of its subscription chains.
///
/// Each row is an account's id and version followed by either a transaction's columns or a
/// renewal info's, the other group NULL (`FULL JOIN … ON false` is a union whose column types
/// PostgreSQL keeps), so both decode as typed columns; an account with neither still gives one
/// row. Accounts are looked up one by one through the primary-key indexes (a lateral join), as
/// cheap per account as a statement for one account and without its per-statement cost. One
/// statement reads from one snapshot of the database, so a version always describes the rows
/// that came with it.
///
/// `package`, not public: `storesync-bench` runs exactly this statement in pgbench.
package enum LookupQuery {
    /// The statement's text; `$1` is the array of account ids (without duplicates).
    package static var sql: String { query(for: []).sql }

    /// - Parameters:
    ///   - accountIds: The accounts, without duplicates.
    ///   - withDigests: Whether each transaction row starts with `signed_transaction_sha256`.
    static func query(for accountIds: [UUID], withDigests: Bool = false) -> PostgresQuery {
        let digest: StaticString = withDigests ? "signed_transaction_sha256, " : ""
        return """
        SELECT accounts.account_id, versions.version, found.*
        FROM unnest(\(accountIds)) AS accounts (account_id)
        JOIN account_versions AS versions ON versions.account_id = accounts.account_id
        LEFT JOIN LATERAL (
            SELECT held.*, renewals.*
            FROM (SELECT \(unescaped: digest)\(unescaped: TransactionRow.columns) FROM transactions
                  WHERE account_id = accounts.account_id) AS held
            FULL JOIN (SELECT \(unescaped: RenewalInfoRepository.columns) FROM renewal_infos
                       WHERE account_id = accounts.account_id) AS renewals ON false
        ) AS found ON true
        """
    }

    /// Where the columns of a transaction row start.
    private static let heldColumn = 2

    /// Runs the lookup; accounts that do not exist are missing from the answer.
    ///
    /// - Parameters:
    ///   - accountIds: The accounts, without duplicates.
    ///   - withDigests: Whether to read the digests of the stored JWS as well (a restore
    ///     recognises the texts an account holds by them); lookups leave them out.
    ///   - connection: Where to run it.
    static func run(_ accountIds: [UUID], withDigests: Bool = false, on connection: PostgresConnection) async throws
        -> [UUID: AccountHoldings]
    {
        try holdings(in: try await connection.query(query(for: accountIds, withDigests: withDigests)), withDigests: withDigests)
    }

    /// What the rows of ``query(for:withDigests:)`` say each account holds.
    static func holdings(in rows: PostgresRows, withDigests: Bool = false) throws -> [UUID: AccountHoldings] {
        try holdings(in: rows, range: rows.indices, withDigests: withDigests)
    }

    /// What the rows in `range` say each account holds: a part of a statement's answer, which
    /// ``AccountHoldings/merging(_:)`` joins with the others.
    static func holdings(in rows: PostgresRows, range: Range<Int>, withDigests: Bool) throws
        -> [UUID: AccountHoldings]
    {
        let recordColumn = heldColumn + (withDigests ? 1 : 0)
        let renewalColumn = recordColumn + TransactionRow.columnCount
        var versions: [UUID: Int64] = [:]
        var records: [UUID: [TransactionRecord]] = [:]
        var renewals: [UUID: [RenewalInfo]] = [:]
        var verifiedTexts: [UUID: [Data: TransactionRecord]] = [:]
        for row in rows[range] {
            let accountId = try row.decodeColumn(at: 0, as: UUID.self)
            versions[accountId] = try row.decodeColumn(at: 1, as: Int64.self)
            if try row.decodeColumn(at: recordColumn, as: String?.self) != nil {
                let record = try TransactionRow.record(row, startingAt: recordColumn)
                records[accountId, default: []].append(record)
                if withDigests, record.evidence == .jws, let digest = try row.decodeColumn(at: heldColumn, as: Data?.self) {
                    verifiedTexts[accountId, default: [:]][digest] = record
                }
            } else if try row.decodeColumn(at: renewalColumn, as: String?.self) != nil {
                renewals[accountId, default: []].append(try RenewalInfoRepository.renewalInfo(row, startingAt: renewalColumn))
            }
        }
        return versions.reduce(into: [:]) { holdings, entry in
            let ledger = Ledger(records: records[entry.key] ?? [], renewalInfos: renewals[entry.key] ?? [])
            holdings[entry.key] = AccountHoldings(
                version: entry.value, ledger: ledger, verifiedTexts: verifiedTexts[entry.key] ?? [:])
        }
    }
}
