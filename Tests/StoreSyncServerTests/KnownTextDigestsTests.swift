import Foundation
import PostgresLibPQ
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncCore
import StoreSyncTesting
import Testing

/// A restore hands the digests it computed while recalling its texts to the insert, which
/// stores them in `signed_transaction_sha256` instead of hashing each text again.
@Suite struct KnownTextDigestsTests {
    @Test func aDigestIsAnsweredOnlyForTheTextItWasComputedFrom() {
        let text = "header." + String(repeating: "p", count: 40) + ".signature-ends-ABCDEFGH"
        // Same length, same last bytes, one byte apart: filed together, told apart by comparing.
        let twin = "header." + String(repeating: "q", count: 40) + ".signature-ends-ABCDEFGH"
        let digests = KnownTextDigests([(text, SignedTransactionDigest.bytes(of: text))])
        #expect(digests.digest(of: text) == SignedTransactionDigest.bytes(of: text))
        #expect(digests.digest(of: String(decoding: Array(text.utf8), as: UTF8.self)) == SignedTransactionDigest.bytes(of: text),
            "an equal text in another string")
        #expect(digests.digest(of: twin) == nil)
        #expect(digests.digestComputingIfNeeded(of: twin) == SignedTransactionDigest.bytes(of: twin))
        #expect(KnownTextDigests().digest(of: text) == nil)
        #expect(digests.digest(of: "") == nil)
    }

    @Test func manyTextsSharingTheirLastBytesKeepTheirOwnDigests() {
        let texts = (0..<50).map { "h.\($0 * 7919).same-tail" }
        let digests = KnownTextDigests(texts.map { ($0, SignedTransactionDigest.bytes(of: $0)) })
        #expect(texts.allSatisfy { digests.digest(of: $0) == SignedTransactionDigest.bytes(of: $0) })
    }

    /// The digest PostgreSQL computes from each stored text (as migration 0004 did) is the
    /// one stored, wherever it came from.
    private func storedDigestsMatch(_ server: TestApp) async throws -> (matching: Int, rows: Int) {
        try await server.database.withConnection { connection in
            try await connection.query(
                """
                SELECT count(*) FILTER (WHERE signed_transaction_sha256 = sha256(convert_to(
                           coalesce(signed_transaction, storesync_jws(jws_header_sha256, jws_payload, jws_signature)), 'UTF8'))),
                       count(*)
                FROM transactions
                """
            ).first.map { try $0.decode((Int, Int).self) } ?? (0, -1)
        }
    }

    /// A restore's texts, hashed while recalled, are stored with those digests.
    @Test func restoredTextsAreStoredWithTheirOwnDigests() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let entries = (0..<10).map { server.entry(TestPurchases.record(purchased: now.addingTimeInterval(Double($0)))) }
            let response = try await server.restore(entries, token: account.token)
            #expect(response.verdicts.allSatisfy { $0.verdict == .accepted })
            let stored = try await storedDigestsMatch(server)
            #expect(stored.rows == 10)
            #expect(stored.matching == stored.rows)
        }
    }

    /// Texts with a known digest and texts without, in one insert: each row gets its own.
    @Test func anInsertHashesOnlyTheTextsWithoutAKnownDigest() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let records = (0..<8).map { index in
                var record = TestPurchases.record(purchased: now.addingTimeInterval(Double(index)))
                record.signedTransaction = server.signer.signTransaction(record)
                return record
            }
            let known = KnownTextDigests(records.prefix(4).map { ($0.signedTransaction!, SignedTransactionDigest.bytes(of: $0.signedTransaction!)) })
            let inserted = try await server.database.withConnection {
                try await TransactionRepository().insert(records.map { (account.accountId, $0) }, knownDigests: known, on: $0)
            }
            #expect(inserted.count == 8)
            let stored = try await storedDigestsMatch(server)
            #expect(stored.rows == 8)
            #expect(stored.matching == stored.rows)
        }
    }
}
