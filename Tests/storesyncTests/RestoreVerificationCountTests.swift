import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

/// Issue 23, finding 6: each distinct signed text of a restore is verified once, however often
/// the request repeats it. Counted on a `storesync serve` process of its own, whose `/metrics`
/// no other test's verifications reach, so the count is exact.
@Suite struct RestoreVerificationCountTests {
    /// Whole records, or signed texts sent alone (`{"signedTransaction": …}`, the cheapest entry
    /// a client can send).
    @Test("A restore repeating one genuine and one forged text verifies each once", arguments: [false, true])
    func eachDistinctTextIsVerifiedOnce(sentAlone: Bool) async throws {
        let fixture = try await KillFixture.make()
        let server = try await fixture.startServer(log: "serve.log")
        defer { server.kill() }
        let account = try await server.signUp()
        let stranger = AppStoreTestSigner(pki: try TestPKI.make())
        var forged = fixture.signer.signedPurchase(of: TestCatalog.lifetime, at: Date())
        forged.signedTransaction = stranger.signTransaction(forged)
        let genuine = fixture.signer.signedPurchase(of: TestCatalog.seasonPass, at: Date())
        let copies = 1_500
        let form = { (record: TransactionRecord) -> RestoreEntry in
            sentAlone ? .signedTransaction(record.signedTransaction ?? "") : .record(record)
        }
        let before = try await Self.verifications(on: server)

        let response = try await server.send(
            "POST", "/v1/restore", token: account.token,
            json: RestoreRequest(
                entries: Array(repeating: form(forged), count: copies) + Array(repeating: form(genuine), count: copies),
                userInitiated: true)
        ).decode(SyncResponse.self)

        let after = try await Self.verifications(on: server)
        #expect(response.verdicts.count == 2 * copies, "every entry still gets its verdict")
        #expect(response.verdicts.prefix(copies).allSatisfy { $0.verdict == .rejected })
        #expect(response.verdicts.dropFirst(copies).allSatisfy { [.accepted, .known].contains($0.verdict) })
        #expect(after.refused - before.refused == 1, "one refused verification for one forged text")
        #expect(after.verified - before.verified == 1, "one verification for one genuine text")
        await server.stop()
        await fixture.remove()
    }

    /// The memo learns a restore's verified texts while the restore's transaction stores them:
    /// another account restoring the same genuine text later is answered without a second
    /// check, while a refused text is never remembered and is checked again.
    @Test func aRestoresVerifiedTextsAreNotVerifiedAgainAndItsRefusedOnesAre() async throws {
        let fixture = try await KillFixture.make()
        let server = try await fixture.startServer(log: "serve.log")
        defer { server.kill() }
        let first = try await server.signUp()
        let second = try await server.signUp()
        let stranger = AppStoreTestSigner(pki: try TestPKI.make())
        var forged = fixture.signer.signedPurchase(of: TestCatalog.lifetime, at: Date())
        forged.signedTransaction = stranger.signTransaction(forged)
        let genuine = fixture.signer.signedPurchase(of: TestCatalog.seasonPass, at: Date())
        let request = RestoreRequest(entries: [.record(forged), .record(genuine)], userInitiated: true)
        let before = try await Self.verifications(on: server)

        let firstAnswer = try await server.send("POST", "/v1/restore", token: first.token, json: request)
            .decode(SyncResponse.self)
        let afterFirst = try await Self.verifications(on: server)
        let secondAnswer = try await server.send("POST", "/v1/restore", token: second.token, json: request)
            .decode(SyncResponse.self)
        let afterSecond = try await Self.verifications(on: server)

        #expect(firstAnswer.verdicts.map(\.verdict) == [.rejected, .accepted])
        #expect(secondAnswer.verdicts.map(\.verdict) == [.rejected, .transferred])
        #expect(afterFirst.verified - before.verified == 1 && afterFirst.refused - before.refused == 1)
        #expect(afterSecond.verified == afterFirst.verified, "the genuine text was remembered")
        #expect(afterSecond.refused - afterFirst.refused == 1, "the forged text was checked again")
        await server.stop()
        await fixture.remove()
    }

    /// The server's count of full signed-transaction verifications, by result.
    private static func verifications(on server: ServerProcess) async throws -> (verified: Double, refused: Double) {
        let samples = MetricsSamples(try await server.send("GET", "/metrics").body)
        return (
            samples.value(#"storesync_signed_transactions_verified_total{result="verified"}"#),
            samples.value(#"storesync_signed_transactions_verified_total{result="refused"}"#))
    }
}
