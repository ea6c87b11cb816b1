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
/// Public so that `make bench` runs exactly this statement in pgbench.
public enum LookupQuery {
    /// The statement's text; `$1` is the array of account ids (without duplicates).
    public static var sql: String { query(for: []).sql }

    /// What the lookup found for one account.
    struct Found: Sendable {
        let version: Int64
        let ledger: Ledger
    }

    static func query(for accountIds: [UUID]) -> PostgresQuery {
        """
        SELECT accounts.account_id, versions.version, found.*
        FROM unnest(\(accountIds)) AS accounts (account_id)
        JOIN account_versions AS versions ON versions.account_id = accounts.account_id
        LEFT JOIN LATERAL (
            SELECT held.*, renewals.*
            FROM (SELECT \(unescaped: TransactionRow.columns) FROM transactions
                  WHERE account_id = accounts.account_id) AS held
            FULL JOIN (SELECT \(unescaped: RenewalInfoRepository.columns) FROM renewal_infos
                       WHERE account_id = accounts.account_id) AS renewals ON false
        ) AS found ON true
        """
    }

    /// Where each column group starts.
    private static let heldColumn = 2
    private static let renewalColumn = heldColumn + TransactionRow.columnCount

    /// Runs the lookup; accounts that do not exist are missing from the answer.
    static func run(_ accountIds: [UUID], on connection: PostgresConnection) async throws -> [UUID: Found] {
        let rows = try await connection.query(query(for: accountIds))
        var versions: [UUID: Int64] = [:]
        var records: [UUID: [TransactionRecord]] = [:]
        var renewals: [UUID: [RenewalInfo]] = [:]
        for row in rows {
            let accountId = try row.decodeColumn(at: 0, as: UUID.self)
            versions[accountId] = try row.decodeColumn(at: 1, as: Int64.self)
            if try row.decodeColumn(at: heldColumn, as: String?.self) != nil {
                records[accountId, default: []].append(try TransactionRow.record(row, startingAt: heldColumn))
            } else if try row.decodeColumn(at: renewalColumn, as: String?.self) != nil {
                renewals[accountId, default: []].append(try RenewalInfoRepository.renewalInfo(row, startingAt: renewalColumn))
            }
        }
        return versions.reduce(into: [:]) { found, entry in
            let ledger = Ledger(records: records[entry.key] ?? [], renewalInfos: renewals[entry.key] ?? [])
            found[entry.key] = Found(version: entry.value, ledger: ledger)
        }
    }
}
