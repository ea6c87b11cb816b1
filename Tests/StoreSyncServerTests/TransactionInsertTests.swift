import Foundation
import PostgresLibPQ
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The batch insert sends the JWS apart from the other columns (arrays zipped by unnest, the
/// texts in parts): every version must be stored with its own JWS, or none.
@Suite struct TransactionInsertTests {
    @Test func everyVersionIsStoredWithItsOwnSignedTransaction() async throws {
        try await withServer { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let now = server.clock.now()
            var versions: [(accountId: UUID, record: TransactionRecord)] = []
            for index in 0..<7 {
                var record = TestPurchases.record(purchased: now.addingTimeInterval(Double(index)))
                switch index % 3 {
                case 0: record.signedTransaction = nil
                case 1: record.signedTransaction = "jws-\(record.transactionId)-\(index)"
                default: record.signedTransaction = server.signer.signTransaction(record)
                }
                versions.append((index % 2 == 0 ? x.accountId : y.accountId, record))
            }
            let inserted = try await server.database.withConnection {
                try await TransactionRepository().insert(versions, on: $0)
            }
            #expect(inserted.count == versions.count)

            let stored = try await server.database.withConnection { connection in
                try await connection.query(
                    """
                    SELECT account_id, transaction_id,
                        coalesce(signed_transaction, storesync_jws(jws_header_sha256, jws_payload, jws_signature))
                    FROM transactions
                    """
                ).map { try $0.decode((UUID, String, String?).self) }
            }
            #expect(stored.count == versions.count)
            for (accountId, record) in versions {
                let row = try #require(stored.first { $0.1 == record.transactionId })
                #expect(row.0 == accountId)
                #expect(row.2 == record.signedTransaction)
            }

            // Stored again: every row conflicts, nothing changes.
            let again = try await server.database.withConnection {
                try await TransactionRepository().insert(versions, on: $0)
            }
            #expect(again.isEmpty)
        }
    }

    /// An insert encoded ahead for other versions (a sync's expectation that its plan did not
    /// meet: another account, another order, one version fewer or changed) is not sent: the
    /// versions given are stored, each with its own account, and nothing else.
    @Test func anInsertEncodedForOtherVersionsIsNotUsed() async throws {
        try await withServer { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let now = server.clock.now()
            let versions = (0..<4).map { index -> (accountId: UUID, record: TransactionRecord) in
                var record = TestPurchases.record(purchased: now.addingTimeInterval(Double(index)))
                record.signedTransaction = server.signer.signTransaction(record)
                return (x.accountId, record)
            }
            var changed = versions[3].record
            changed.revocationDate = now
            let others: [[(accountId: UUID, record: TransactionRecord)]] = [
                versions.map { (y.accountId, $0.record) }, versions.reversed(), Array(versions.dropLast()),
                Array(versions.dropLast()) + [(x.accountId, changed)],
            ]
            for (number, expected) in others.enumerated() {
                let stored = try await server.database.withConnection { connection in
                    try await connection.execute("DELETE FROM transactions")
                    _ = try await TransactionRepository().insert(
                        versions, encoded: TransactionRepository.encodeInsert(expected), on: connection)
                    return try await connection.query(
                        "SELECT account_id, transaction_id, revocation_date FROM transactions ORDER BY transaction_id"
                    ).map { try $0.decode((UUID, String, Date?).self) }
                }
                #expect(stored.map(\.0) == Array(repeating: x.accountId, count: 4), "expectation \(number)")
                #expect(stored.map(\.1) == versions.map(\.record.transactionId).sorted(), "expectation \(number)")
                #expect(stored.allSatisfy { $0.2 == nil }, "expectation \(number)")
            }
            // Encoded for exactly these versions, the statements encoded ahead store them.
            let stored = try await server.database.withConnection { connection in
                try await connection.execute("DELETE FROM transactions")
                return try await TransactionRepository().insert(
                    versions, encoded: TransactionRepository.encodeInsert(versions), on: connection)
            }
            #expect(stored == Set(versions.map { VersionKey(accountId: $0.accountId, record: $0.record) }))
        }
    }

    /// More versions than one statement writes: each statement's share is stored, the keys of
    /// all of them come back, and a version sent twice across a statement boundary is stored
    /// once and reported once.
    @Test func versionsBeyondOneStatementAreAllStoredOnce() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let count = TransactionRepository.versionsPerStatement * 2 + 1
            var versions: [(accountId: UUID, record: TransactionRecord)] = (0..<count).map { index in
                var record = TestPurchases.record(
                    id: String(4_000_000_000_000 + index), purchased: now.addingTimeInterval(-Double(index)))
                record.signedTransaction = server.signer.signTransaction(record)
                return (account.accountId, record)
            }
            // The last version of the first statement again, as the first of the last.
            versions.insert(versions[TransactionRepository.versionsPerStatement - 1], at: TransactionRepository.versionsPerStatement * 2)

            let inserted = try await server.database.withConnection {
                try await TransactionRepository().insert(versions, on: $0)
            }
            #expect(inserted.count == count)
            let stored = try await server.database.withConnection { connection in
                try await connection.query(
                    """
                    SELECT transaction_id, storesync_jws(jws_header_sha256, jws_payload, jws_signature)
                    FROM transactions WHERE account_id = \(account.accountId)
                    """
                ).map { try $0.decode((String, String?).self) }
            }
            #expect(stored.count == count)
            let texts = Dictionary(uniqueKeysWithValues: stored.map { ($0.0, $0.1) })
            #expect(versions.allSatisfy { texts[$0.record.transactionId] == $0.record.signedTransaction })
        }
    }

    /// A restore works out the ledger it wrote from the versions it sent
    /// (`TransactionRow.readBack`): that must be exactly what reading the rows back gives,
    /// dates with fractions a `timestamptz` does not keep, receipts' `verifiedAt`, revocations
    /// and versions of one transaction that the merge ranks included.
    @Test func aVersionReadsBackAsReadBackSaysIt() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let base = Date(timeIntervalSince1970: 1_790_000_000.123_456_789)
            var records: [TransactionRecord] = []
            for index in 0..<24 {
                let moment = base.addingTimeInterval(Double(index) * 86_400.000_000_7 + Double(index) / 3)
                var record = TestPurchases.record(
                    TestCatalog.monthly, type: .autoRenewable, id: "t\(index % 8)", original: "t0", purchased: moment,
                    signed: moment.addingTimeInterval(0.000_000_3 * Double(index)),
                    expires: moment.addingTimeInterval(2_629_800.000_5), revoked: index % 5 == 4 ? moment.addingTimeInterval(7.7) : nil,
                    group: "g")
                if index % 3 == 1 { record.evidence = .receipt(verifiedAt: moment.addingTimeInterval(0.123_456_7)) }
                if index % 3 == 2 { record.signedTransaction = server.signer.signTransaction(record) }
                records.append(record)
            }
            let inserted = try await server.database.withConnection {
                try await TransactionRepository().insert(records.map { (account.accountId, $0) }, on: $0)
            }
            #expect(inserted.count == records.count)
            let read = try await server.database.withConnection {
                try await TransactionRepository().ledger(of: account.accountId, on: $0)
            }
            #expect(read == Ledger(records: records.map(TransactionRow.readBack)))
            #expect(read != Ledger(records: records), "the raw records differ from what is stored, or the test proves nothing")
        }
    }
}
