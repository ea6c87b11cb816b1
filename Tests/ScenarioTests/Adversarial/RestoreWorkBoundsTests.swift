import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Finding 6: one restore must not buy unbounded work. Legacy flags are bounded by the catalog
/// (a flag naming no product is dropped, all of them under one verdict) and each distinct
/// signed text is verified once however often a request repeats it.
///
/// The bounds are generous on purpose: they tell bounded work from work that grows with the
/// request, not fast from slow.
@Suite("Adversarial: work per restore") struct RestoreWorkBoundsTests {
    @Test("200,000 legacy flags answer small, within a small multiple of a one-flag restore")
    func legacyFlagsAreBoundedByTheCatalog() async throws {
        try await withLiveServer { server in
            let account = try await server.signUp()
            let normalStart = ContinuousClock.now
            let normal = try await server.restore([], legacyFlags: [TestCatalog.lifetime: true], token: account.token)
            let normalElapsed = ContinuousClock.now - normalStart
            #expect(normal.verdicts.map(\.verdict) == [.unverifiedClaim])

            var flags = [TestCatalog.lifetime: true]
            for index in 0..<200_000 { flags["com.attacker.flag.\(index)"] = true }
            let residentBefore = Self.residentBytes()
            let floodStart = ContinuousClock.now
            let response = try await server.send(
                "POST", "/v1/restore", token: account.token, json: RestoreRequest(entries: [], legacyFlags: flags))
            let floodElapsed = ContinuousClock.now - floodStart
            let residentAfter = Self.residentBytes()

            try #require(response.status == 200, "answered \(response.status): \(response.problem?.detail ?? "")")
            #expect(response.body.count < 16 * 1024, "the answer is \(response.body.count) bytes")
            let answer = try response.decode(SyncResponse.self)
            #expect(answer.verdicts.count <= TestCatalog.products.count + 1)
            #expect(answer.verdicts.first { $0.productId == TestCatalog.lifetime }?.verdict == .unverifiedClaim)
            let dropped = try #require(answer.verdicts.first { $0.productId == nil }, "one verdict for the unknown flags")
            #expect(dropped.verdict == .rejected)
            #expect(dropped.reason?.contains("200000") == true, "\(dropped.reason ?? "")")
            #expect(floodElapsed < max(normalElapsed * 50, .seconds(30)), "took \(floodElapsed), a one-flag restore \(normalElapsed)")
            if let residentBefore, let residentAfter {
                #expect(residentAfter - residentBefore < 512 * 1024 * 1024, "resident memory grew by \(residentAfter - residentBefore) bytes")
            }
        }
    }

    /// Whole records, or signed texts sent alone (`{"signedTransaction": …}`, the cheapest entry
    /// a client can send).
    @Test("A restore repeating one signed text verifies it once", arguments: [false, true])
    func eachDistinctTextIsVerifiedOnce(sentAlone: Bool) async throws {
        try await withLiveServer { server in
            let account = try await server.signUp()
            let stranger = AppStoreTestSigner(pki: try TestPKI.make())
            let forged = TestPurchase.buy(TestCatalog.lifetime, on: server)
            var forgedEntry = forged.record
            forgedEntry.signedTransaction = stranger.signTransaction(forged.record)
            let genuine = TestPurchase.buy(TestCatalog.seasonPass, on: server)
            let copies = 1_500
            let form = { (record: TransactionRecord) -> RestoreEntry in
                sentAlone ? .signedTransaction(record.signedTransaction ?? "") : .record(record)
            }
            let before = try await Self.verifications(on: server)

            let response = try await server.send(
                "POST", "/v1/restore", token: account.token,
                json: RestoreRequest(
                    entries: Array(repeating: form(forgedEntry), count: copies) + Array(repeating: form(entry(genuine)), count: copies),
                    userInitiated: true)
            ).decode(SyncResponse.self)

            let after = try await Self.verifications(on: server)
            #expect(response.verdicts.count == 2 * copies, "every entry still gets its verdict")
            #expect(response.verdicts.prefix(copies).allSatisfy { $0.verdict == .rejected })
            #expect(response.verdicts.dropFirst(copies).allSatisfy { [.accepted, .known].contains($0.verdict) })
            // Other suites verify in parallel on the same metrics; a text verified per copy would
            // count 1,500 here.
            let refused = after.refused - before.refused
            let verified = after.verified - before.verified
            #expect(refused >= 1 && refused < Double(copies) / 2, "\(refused) refused verifications for one forged text")
            #expect(verified >= 1 && verified < Double(copies) / 2, "\(verified) verifications for one genuine text")
        }
    }

    /// The server's count of full signed-transaction verifications, by result.
    private static func verifications(on server: TestServer) async throws -> (verified: Double, refused: Double) {
        let samples = MetricsSamples(try await server.send("GET", "/metrics").body)
        return (
            samples.value(#"storesync_signed_transactions_verified_total{result="verified"}"#),
            samples.value(#"storesync_signed_transactions_verified_total{result="refused"}"#))
    }

    /// This process's resident set in bytes (the server runs in it), where `/proc` tells.
    private static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
