import Foundation
import PostgresLibPQ
import StoreSyncCore

/// The entitlement lookup in one round trip: the account version, every transaction version
/// the account holds and the renewal info of each of its subscription chains.
///
/// Transactions and renewal infos come as rows of one result, each with the other's columns
/// NULL (`FULL JOIN … ON false` is a union whose column types PostgreSQL keeps), so both decode
/// as typed columns; an account with neither still gives one row, with its version.
///
/// Public so that `make bench` runs exactly this statement in pgbench.
public enum LookupQuery {
    /// The statement's text; `$1`, `$2` and `$3` are the same account id.
    public static var sql: String { query(for: UUID()).sql }

    static func query(for accountId: UUID) -> PostgresQuery {
        """
        WITH version AS (SELECT version FROM account_versions WHERE account_id = \(accountId)),
        held AS (SELECT \(unescaped: TransactionRow.columns) FROM transactions WHERE account_id = \(accountId)),
        renewals AS (SELECT \(unescaped: RenewalInfoRepository.columns) FROM renewal_infos WHERE account_id = \(accountId))
        SELECT held.*, renewals.*, version.version
        FROM version LEFT JOIN (held FULL JOIN renewals ON false) ON true
        """
    }

    /// Runs the lookup; `nil` when the account does not exist.
    static func run(_ accountId: UUID, on connection: PostgresConnection) async throws -> (version: Int64, ledger: Ledger)? {
        let rows = try await connection.query(query(for: accountId))
        guard let first = rows.first else { return nil }
        let version = try first.decode(column: "version", as: Int64.self)
        let renewalColumn = TransactionRow.columnCount
        var records: [TransactionRecord] = []
        records.reserveCapacity(rows.count)
        var renewals: [RenewalInfo] = []
        for row in rows {
            if try row.decodeColumn(at: 0, as: String?.self) != nil {
                records.append(try TransactionRow.record(row))
            } else if try row.decodeColumn(at: renewalColumn, as: String?.self) != nil {
                renewals.append(try RenewalInfoRepository.renewalInfo(row, startingAt: renewalColumn))
            }
        }
        return (version, Ledger(records: records, renewalInfos: renewals))
    }
}
