import Crypto
import Foundation
import PostgresLibPQ
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncCore
import StoreSyncTesting
import Testing

/// A restore holds its texts split after their headers from the moment it recalls them
/// (`SignedTextSplitter`), each with the SHA-256 it computed there: stored, every text must be
/// the one sent, byte for byte, with its own digest, however it was held.
@Suite struct SignedTextSplitterTests {
    private func sha256(_ text: String) -> Data { Data(SHA256.hash(data: Array(text.utf8))) }

    @Test func eachTextCarriesTheDigestOfItsWholeTextAndSharesItsHeader() {
        var splitter = SignedTextSplitter()
        let texts = [
            "header-one.payload-1.signature-1", "header-one.payload-2.signature-2", "header-two.payload-3.signature-3",
            "header-one.payload-4.signature-4", "no-dot-at-all", ".empty-header.signature", "",
        ]
        let split = texts.map { splitter.split($0) }
        for (text, held) in zip(texts, split) {
            #expect(held.string == text)
            #expect(held.sha256 == sha256(text))
            #expect(SignedTransactionDigest.bytes(of: held) == sha256(text))
        }
        guard case .split(let first, _) = split[0].layout, case .split(let second, _) = split[1].layout,
            case .split(let other, _) = split[2].layout, case .split(let again, _) = split[3].layout
        else {
            Issue.record("texts with a dot are held split")
            return
        }
        #expect(first === second)
        #expect(first === again, "a header seen before another one is still shared")
        #expect(first !== other)
        guard case .whole = split[4].layout else {
            Issue.record("a text without a dot is held whole")
            return
        }
    }

    @Test func aTextWithoutADigestIsHashedWhole() {
        let text = SignedText.splitting("header.payload.signature")
        #expect(text.sha256 == nil)
        #expect(SignedTransactionDigest.bytes(of: text) == sha256("header.payload.signature"))
    }

    /// The columns a batch is stored in do not depend on how its texts are held.
    @Test func theStoredColumnsAreTheSameForSplitAndWholeTexts() {
        let texts: [String?] = [
            "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJl", nil,
            "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMiJ9.c2lnbmF0dXJlMg", "not.canonical+.base64",
            "two.dots", "a.b.c.d", "eyJhbGciOiJFUzI1NiJ8.eyJ0cmFuc2FjdGlvbklkIjoiMyJ9.c2lnbmF0dXJlMw",
        ]
        var splitter = SignedTextSplitter()
        let whole = SignedTextColumns(texts)
        let split = SignedTextColumns(texts.map { $0.map { splitter.split($0) } })
        #expect(split.headerDigests == whole.headerDigests)
        #expect(split.payloads == whole.payloads)
        #expect(split.signatures == whole.signatures)
        #expect(split.wholeTexts == whole.wholeTexts)
        #expect(split.distinctHeaderDigests == whole.distinctHeaderDigests)
        #expect(split.distinctHeaders == whole.distinctHeaders)
        #expect(whole.wholeTexts.compactMap { $0 } == ["not.canonical+.base64", "two.dots", "a.b.c.d"])
        #expect(whole.distinctHeaders.count == 2)
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

    /// A restore's texts, split and hashed while recalled, are stored as sent with those digests.
    @Test func restoredTextsAreStoredAsSentWithTheirOwnDigests() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let entries = (0..<10).map { server.entry(TestPurchases.record(purchased: now.addingTimeInterval(Double($0)))) }
            let response = try await server.restore(entries, token: account.token)
            #expect(response.verdicts.allSatisfy { $0.verdict == .accepted })
            let stored = try await storedDigestsMatch(server)
            #expect(stored.rows == 10)
            #expect(stored.matching == stored.rows)
            #expect(try await storedTexts(server) == Self.texts(of: entries))
        }
    }

    /// Every stored text, put back together from its parts, by transaction id.
    private func storedTexts(_ server: TestApp) async throws -> [String: String] {
        try await server.database.withConnection { connection in
            Dictionary(uniqueKeysWithValues: try await connection.query(
                "SELECT transaction_id, storesync_jws(jws_header_sha256, jws_payload, jws_signature) FROM transactions"
            ).map { try $0.decode((String, String).self) })
        }
    }

    /// The texts of restore entries, by transaction id.
    private static func texts(of entries: [TransactionRecord]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: entries.map { ($0.transactionId, $0.signedTransaction!) })
    }

    /// Split texts carrying digests and whole texts without, in one insert: each row gets its own.
    @Test func anInsertHashesOnlyTheTextsWithoutADigest() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            var splitter = SignedTextSplitter()
            let records = (0..<8).map { index in
                var record = TestPurchases.record(purchased: now.addingTimeInterval(Double(index)))
                record.signedTransaction = server.signer.signTransaction(record)
                if index < 4 { record.signedText = splitter.split(record.signedTransaction!) }
                return record
            }
            let inserted = try await server.database.withConnection {
                try await TransactionRepository().insert(records.map { (account.accountId, $0) }, on: $0)
            }
            #expect(inserted.count == 8)
            let stored = try await storedDigestsMatch(server)
            #expect(stored.rows == 8)
            #expect(stored.matching == stored.rows)
        }
    }

    /// Texts of more distinct headers than any step shares (the stream and recall share 8, the
    /// memo 16), some repeated: each text keeps its own header beyond the limits, and every one
    /// is accepted and stored as sent; restored again (through the memo), every one is known.
    @Test func textsOfManyHeadersAreStoredAsSentAndKnownAgain() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let entries = (0..<30).map { index in
                var record = TestPurchases.record(purchased: now.addingTimeInterval(Double(index)))
                let header = AppStoreTestHeader(extra: ["kid": "key-\(index % 20)"])
                record.signedTransaction = server.signer.sign(server.signer.transactionPayload(for: record), header: header)
                return record
            }
            #expect(Set(entries.map { $0.signedTransaction!.prefix { $0 != "." } }).count == 20)
            let first = try await server.restore(entries, token: account.token)
            #expect(first.verdicts.map(\.verdict) == Array(repeating: .accepted, count: 30))
            #expect(try await storedTexts(server) == Self.texts(of: entries))
            let digests = try await storedDigestsMatch(server)
            #expect(digests.matching == 30)

            let again = try await server.restore(entries, token: account.token)
            #expect(again.verdicts.map(\.verdict) == Array(repeating: .known, count: 30))
        }
    }
}
