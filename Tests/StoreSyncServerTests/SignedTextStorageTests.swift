import Crypto
import Foundation
import PostgresLibPQ
import PropertyBased
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// Signed texts are stored in parts (migration 0010): each distinct header once, each row's
/// payload and signature as bytes. Every text must come back byte for byte, whatever its
/// spelling, and its digest must stay the SHA-256 of that exact text.
@Suite struct SignedTextStorageTests {
    @Test func everyTransactionTextComesBackExactlyFromThePurchaseHistory() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            await propertyCheck(count: 40, input: SignedTextSample.generator.array(of: 1...6)) { samples in
                let purchase = TestPurchases.nextId()
                let versions = samples.enumerated().map { index, sample in
                    var record = TestPurchases.record(
                        original: purchase, purchased: now, signed: now.addingTimeInterval(Double(index)))
                    record.signedTransaction = sample.text(signer: server.signer)
                    return (accountId: account.accountId, record: record)
                }
                let inserted = try await server.database.withConnection {
                    try await TransactionRepository().insert(versions, on: $0)
                }
                #expect(inserted.count == samples.count)

                let response = try await server.send("GET", "/v1/admin/purchases/\(purchase)", token: server.adminKey)
                let history = try response.decode(PurchaseHistory.self)
                let stored = try await storedForms(of: purchase, on: server)
                for (sample, version) in zip(samples, versions) {
                    let text = try #require(version.record.signedTransaction)
                    let answered = history.transactions.first { $0.transactionId == version.record.transactionId }
                    #expect(answered?.signedTransaction == text, "\(sample)")
                    let form = try #require(stored[version.record.transactionId])
                    #expect(form.split == sample.splits, "\(sample)")
                    #expect(form.digest == Data(SHA256.hash(data: Data(text.utf8))), "\(sample)")
                }
            }
        }
    }

    @Test func renewalInfoAndUnclaimedTextsComeBackExactly() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            await propertyCheck(count: 40, input: SignedTextSample.generator.array(of: 1...4)) { samples in
                let texts = samples.map { $0.text(signer: server.signer) }
                let renewals = texts.map { text in
                    RenewalInfo(
                        originalTransactionId: TestPurchases.nextId(), autoRenewProductId: TestCatalog.monthly,
                        productId: TestCatalog.monthly, autoRenewStatus: true, environment: .sandbox, signedDate: now,
                        signedRenewalInfo: text)
                }
                let kept = try await server.database.withTransaction { connection in
                    try await RenewalInfoRepository().store(renewals.map { (account.accountId, $0) }, on: connection)
                    for renewal in renewals {
                        try await NotificationRepository().storeUnclaimed(
                            originalTransactionId: renewal.originalTransactionId, kind: .renewalInfo, signedDate: now,
                            signedPayload: renewal.signedRenewalInfo ?? "", on: connection)
                    }
                    return try await NotificationRepository().takeUnclaimed(renewals.map(\.originalTransactionId), on: connection)
                }
                let stored = try await server.database.withConnection { connection in
                    try await connection.query(
                        """
                        SELECT original_transaction_id,
                            coalesce(signed_renewal_info, storesync_jws(jws_header_sha256, jws_payload, jws_signature)),
                            jws_payload IS NOT NULL
                        FROM renewal_infos WHERE original_transaction_id = ANY(\(renewals.map(\.originalTransactionId)))
                        """
                    ).map { try $0.decode((String, String, Bool).self) }
                }
                for (sample, renewal) in zip(samples, renewals) {
                    let row = try #require(stored.first { $0.0 == renewal.originalTransactionId })
                    #expect(row.1 == renewal.signedRenewalInfo, "\(sample)")
                    #expect(row.2 == sample.splits, "\(sample)")
                    let unclaimed = kept.first { $0.originalTransactionId == renewal.originalTransactionId }
                    #expect(unclaimed?.signedPayload == renewal.signedRenewalInfo, "\(sample)")
                }
            }
        }
    }

    @Test func aRestoreStoresItsOneCertificateChainOnce() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let entries = (0..<50).map { _ in server.entry(TestPurchases.record(purchased: now)) }
            let response = try await server.restore(entries, token: account.token)
            #expect(response.verdicts.allSatisfy { $0.verdict == .accepted })
            _ = try await server.restore([server.entry(TestPurchases.record(purchased: now))], token: account.token)

            #expect(try await server.count("jws_headers") == 1)
            let whole = try await server.database.withConnection { connection in
                try #require(try await connection.query(
                    "SELECT count(*) FROM transactions WHERE signed_transaction IS NOT NULL OR jws_payload IS NULL"
                ).first).decode(Int.self)
            }
            #expect(whole == 0)
        }
    }

    @Test(arguments: [
        "UPDATE jws_headers SET header = header || 'x'", "DELETE FROM jws_headers", "TRUNCATE jws_headers",
    ])
    func storedHeadersNeverChange(statement: String) async throws {
        try await withServer { server in
            let account = try await server.signUp()
            _ = try await server.restore([server.entry(TestPurchases.record(purchased: server.clock.now()))], token: account.token)
            let error = try await #require(throws: PostgresError.self) {
                try await server.database.withConnection { try await $0.execute(PostgresQuery(unsafeSQL: statement)) }
            }
            #expect(error.code == .restrictViolation)
            #expect(try await server.count("jws_headers") == 1)
        }
    }

    @Test func aTextWhoseHeaderIsNotStoredIsAnErrorNotAMissingText() async throws {
        try await withServer { server in
            let error = try await #require(throws: PostgresError.self) {
                try await server.database.withConnection { connection in
                    try await connection.query(
                        "SELECT storesync_jws(\(Data(repeating: 7, count: 32)), \(Data([1])), \(Data([2])))")
                }
            }
            #expect(error.code == PostgresError.Code(raw: "XX001"))
        }
    }

    /// Whether each version of a purchase is stored split, and its digest, by transaction id.
    private func storedForms(of purchase: String, on server: TestApp) async throws -> [String: (split: Bool, digest: Data?)] {
        try await server.database.withConnection { connection in
            try await connection.query(
                """
                SELECT transaction_id, jws_payload IS NOT NULL, signed_transaction_sha256 FROM transactions
                WHERE original_transaction_id = \(purchase)
                """
            ).reduce(into: [:]) { forms, row in
                let (id, split, digest) = try row.decode((String, Bool, Data?).self)
                forms[id] = (split, digest)
            }
        }
    }
}
