import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// A restore entry that is only `{"signedTransaction": "…"}`, as an app without StoreSync's
/// cache sends it (Flutter, React Native, a backend): every field is read from the verified
/// JWS. A whole record still yields to its JWS, and is rejected when it contradicts it.
@Suite struct SignedTransactionEntryTests {
    private func restore(_ entries: [RestoreEntry], userInitiated: Bool = true, on server: TestApp, token: String)
        async throws -> SyncResponse
    {
        let response = try await server.send(
            "POST", "/v1/restore", token: token, json: RestoreRequest(entries: entries, userInitiated: userInitiated))
        #expect(response.status == 200, "\(response.problem?.detail ?? "")")
        return try response.decode(SyncResponse.self)
    }

    @Test func everyFieldOfAnEntrySentAloneIsReadFromItsVerifiedJWS() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let monthly = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, purchased: now, expires: now.addingTimeInterval(30 * 86_400),
                token: account.appAccountToken, group: TestCatalog.subscriptionGroup)
            let jws = server.signer.signTransaction(monthly)

            let response = try await restore([.signedTransaction(jws)], on: server, token: account.token)

            #expect(response.verdicts == [
                Verdict(
                    originalTransactionId: monthly.originalTransactionId, transactionId: monthly.transactionId,
                    verdict: .accepted, productId: TestCatalog.monthly),
            ])
            // A snapshot's transactions go without their JWS: every other field is the JWS's.
            #expect(response.snapshot.transactions == [monthly])
            #expect(response.snapshot.entitlements.map(\.entitlementId) == ["premium"])
            #expect(response.snapshot.entitlements.first?.expiresAt == monthly.expiresDate)
        }
    }

    @Test func entriesSentAloneMixWithRecordsAndARecordContradictingItsJWSIsStillRejected() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let lifetime = server.entry(TestPurchases.record(purchased: now))
            let season = TestPurchases.record(TestCatalog.seasonPass, type: .nonRenewing, purchased: now)
            var edited = server.entry(TestPurchases.record(TestCatalog.coins, type: .consumable, purchased: now))
            edited.productId = TestCatalog.monthlyPro

            let response = try await restore(
                [.record(lifetime), .signedTransaction(server.signer.signTransaction(season)), .record(edited)],
                on: server, token: account.token)

            #expect(response.verdicts.map(\.verdict) == [.accepted, .accepted, .rejected])
            #expect(response.verdicts.map(\.transactionId) == [lifetime.transactionId, season.transactionId, edited.transactionId])
            #expect(response.verdicts.last?.reason == "the entry does not match its own signed transaction")
            #expect(response.snapshot.entitlements.map(\.entitlementId).sorted() == ["premium", "season"])
            #expect(try await server.count("transactions") == 2)
        }
    }

    @Test func aRefusedTextSentAloneIsRejectedNamingTheIdsItClaimsAndStoresNothing() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let stranger = AppStoreTestSigner(pki: try TestPKI.make(name: "Stranger"))
            let claimed = TestPurchases.record(purchased: server.clock.now())
            let oversized = String(repeating: "A", count: 100 * 1024)

            let response = try await restore(
                [.signedTransaction(stranger.signTransaction(claimed)), .signedTransaction("not a JWS"), .signedTransaction(oversized)],
                on: server, token: account.token)

            #expect(response.verdicts.map(\.verdict) == [.rejected, .rejected, .rejected])
            #expect(response.verdicts.map(\.transactionId) == [claimed.transactionId, "", ""])
            #expect(response.verdicts.first?.productId == TestCatalog.lifetime)
            #expect(response.verdicts.last?.reason?.contains("larger than") == true, "\(response.verdicts.last?.reason ?? "")")
            #expect(response.snapshot.entitlements.isEmpty)
            #expect(try await server.count("transactions") == 0)
        }
    }

    @Test func aPurchaseSentAloneFollowsTheOwnershipRulesOfAnyEntry() async throws {
        try await withServer { server in
            let owner = try await server.signUp()
            let other = try await server.signUp()
            let lifetime = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(lifetime, token: owner.token)
            let alone = RestoreEntry.signedTransaction(server.signer.signTransaction(lifetime))

            let background = try await restore([alone], userInitiated: false, on: server, token: other.token)
            #expect(background.verdicts.map(\.verdict) == [.ownedByOtherAccount])
            #expect(try await server.owner(of: lifetime.originalTransactionId) == owner.accountId)

            let asked = try await restore([alone], on: server, token: other.token)
            #expect(asked.verdicts.map(\.verdict) == [.transferred])
            #expect(try await server.owner(of: lifetime.originalTransactionId) == other.accountId)
        }
    }

    @Test func underRefuseASandboxTextSentAloneIsRejectedNamingTheSetting() async throws {
        try await withServer(configure: EnvironmentTests.production(.refuse)) { server in
            let account = try await server.signUp()
            let sandbox = TestPurchases.record(purchased: server.clock.now(), environment: .sandbox)

            let response = try await restore(
                [.signedTransaction(server.signer.signTransaction(sandbox))], on: server, token: account.token)

            #expect(response.verdicts.map(\.verdict) == [.rejected])
            #expect(response.verdicts.first?.reason?.contains(EnvironmentTests.refusal) == true)
            #expect(try await server.count("transactions") == 0)
        }
    }

    /// What a hostile or careless client sends instead of an entry: a 400 naming the field in
    /// its own JSON, and nothing changes.
    @Test(arguments: [
        (#"{"entries":[{}]}"#, "entries[0].signedTransaction"),
        (#"{"entries":[{"signedTransaction":"a.b.c"},{"signedTransaction":null}]}"#, "entries[1].signedTransaction"),
        (#"{"entries":[{"signedTransaction":7}]}"#, "entries[0].signedTransaction"),
        (#"{"entries":[{"signedTransaction":"a.b.c","productId":"com.example.storesync.lifetime"}]}"#, "entries[0].evidence"),
        (#"{"entries":[{"signedTransaction":"a.b.c","expiresDate":null}]}"#, "entries[0].evidence"),
        (#"{"entries":["a.b.c"]}"#, "entries[0]"),
    ])
    func anEntryThatIsNeitherFormIsA400NamingTheField(body: String, field: String) async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let versions = try await server.versions()

            let response = try await server.send("POST", "/v1/restore", token: account.token, body: Data(body.utf8))

            #expect(response.status == 400, "\(response.problem?.detail ?? "")")
            #expect(response.problem?.field == field, "\(response.problem?.detail ?? "")")
            #expect(try await server.versions() == versions)
            #expect(try await server.count("transactions") == 0)
        }
    }

    @Test func moreEntriesSentAloneThanTheLimitAreRefusedUnread() async throws {
        try await withServer(configure: { $0.maxRestoreEntries = 1_000 }) { server in
            let account = try await server.signUp()
            let entries = Array(repeating: RestoreEntry.signedTransaction("a.b.c"), count: 1_001)

            let response = try await server.send(
                "POST", "/v1/restore", token: account.token, json: RestoreRequest(entries: entries))

            #expect(response.status == 400)
            #expect(response.problem?.field == "entries")
        }
    }

    /// The cap bounds what a body can make the server build, not only what it stores: one
    /// entry too many is refused as it starts, before the rest of the body is read (here a
    /// malformed tail, which would otherwise be the answer).
    @Test func anEntryOverTheLimitIsRefusedBeforeTheRestOfTheBodyIsRead() async throws {
        try await withServer(configure: { $0.maxRestoreEntries = 2 }) { server in
            let account = try await server.signUp()
            let body = #"{"entries":[{"signedTransaction":"a.b.c"},{"signedTransaction":"a.b.c"},{"signedTransaction":"a.b.c"},x"#

            let response = try await server.send("POST", "/v1/restore", token: account.token, body: Data(body.utf8))

            #expect(response.status == 400)
            #expect(response.problem?.field == "entries")
            #expect(response.problem?.detail == "at most 2 entries per restore")
        }
    }
}
