import AppStoreVerification
import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `POST /v1/restore` with `receipt` (StoreKit 1 apps): the receipt is verified with Apple's
/// verifyReceipt exactly as an upload's is, and its in-app purchases join the restore's
/// verdicts, after the entries' and before the legacy flags', and its snapshot. A receipt Apple
/// refuses or cannot be asked about fails the restore as a whole, before anything changes.
@Suite struct RestoreReceiptTests {
    /// A receipt's lifetime purchase, made an hour ago.
    private static func lifetimeEntry(_ id: String) -> ReceiptEntry {
        ReceiptEntry(
            productId: TestCatalog.lifetime, transactionId: id, originalTransactionId: id,
            purchaseDateMs: String(Date().addingTimeInterval(-3600).millisecondsSince1970))
    }

    /// Runs `body` with a server whose verifyReceipt endpoints are a stand-in answering `reply`.
    private func withReceiptServer(
        reply: @escaping @Sendable (AppStoreReceiptStandInRequest) -> AppStoreReceiptStandInReply,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (TestApp, AppStoreReceiptStandIn) async throws -> Void
    ) async throws {
        try await AppStoreReceiptStandIn.run(reply: reply) { standIn in
            try await withServer(configure: {
                $0.verifyReceiptURL = standIn.productionURL
                $0.verifyReceiptSandboxURL = standIn.sandboxURL
                $0.sharedSecret = "shared-secret"
                configure(&$0)
            }) { server in try await body(server, standIn) }
        }
    }

    /// A sandbox receipt of `entries`, after the production endpoint's 21007.
    private static func sandboxReceipt(_ entries: [ReceiptEntry]) -> @Sendable (AppStoreReceiptStandInRequest) -> AppStoreReceiptStandInReply {
        { request in
            request.endpoint == .production
                ? .status(21007) : .receipt(bundleId: "com.example.storesync", environment: .sandbox, inApp: entries)
        }
    }

    private static func restore(
        _ entries: [TransactionRecord] = [], receipt: String = Data("a receipt".utf8).base64EncodedString(),
        legacyFlags: [String: Bool]? = nil, userInitiated: Bool = true, dryRun: Bool = false, on server: TestApp, token: String
    ) async throws -> TestResponse {
        try await server.send(
            "POST", "/v1/restore", token: token,
            json: RestoreRequest(
                entries: entries, legacyFlags: legacyFlags, receipt: receipt, userInitiated: userInitiated, dryRun: dryRun))
    }

    @Test func theReceiptsPurchasesJoinTheRestoreBetweenTheEntriesAndTheFlags() async throws {
        let id = TestPurchases.nextId()
        try await withReceiptServer(reply: Self.sandboxReceipt([Self.lifetimeEntry(id)])) { server, standIn in
            let account = try await server.signUp()
            let season = server.entry(TestPurchases.record(TestCatalog.seasonPass, type: .nonRenewing, purchased: server.clock.now()))

            let response = try await Self.restore(
                [season], legacyFlags: [TestCatalog.lifetime: true], on: server, token: account.token)

            #expect(response.status == 200, "\(response.problem?.detail ?? "")")
            let body = try response.decode(SyncResponse.self)
            #expect(body.verdicts.map(\.verdict) == [.accepted, .accepted, .known])
            #expect(body.verdicts.map(\.transactionId) == [season.transactionId, id, id])
            #expect(body.snapshot.entitlements.map(\.entitlementId).sorted() == ["premium", "season"])
            let fromReceipt = try #require(body.snapshot.transactions.first { $0.transactionId == id })
            #expect(fromReceipt.environment == .sandbox)
            if case .receipt = fromReceipt.evidence {} else { Issue.record("the evidence is \(fromReceipt.evidence)") }
            let asked = await standIn.requests
            #expect(asked.map(\.endpoint) == [.production, .sandbox])
            #expect(asked.first?.password == "shared-secret")
            #expect(asked.first?.receiptData == Data("a receipt".utf8).base64EncodedString())
        }
    }

    /// A StoreKit 1 app's retired product, left out of today's catalog: its receipt purchase is
    /// answered and kept, grants nothing, and grants once the product is defined, without
    /// another restore (as a signed transaction of an unknown product does).
    @Test func aReceiptPurchaseOfAProductTheCatalogLacksIsKeptAndGrantsOnceDefined() async throws {
        let id = TestPurchases.nextId()
        let retired = "com.example.storesync.pro2014"
        let entry = ReceiptEntry(
            productId: retired, transactionId: id, originalTransactionId: id,
            purchaseDateMs: String(Date().addingTimeInterval(-3600).millisecondsSince1970))
        try await withReceiptServer(reply: Self.sandboxReceipt([entry])) { server, _ in
            let account = try await server.signUp()

            let body = try await Self.restore(on: server, token: account.token).decode(SyncResponse.self)

            #expect(body.verdicts.map(\.transactionId) == [id])
            #expect(body.verdicts.map(\.verdict) == [.accepted])
            #expect(body.snapshot.entitlements.isEmpty)
            #expect(body.snapshot.transactions.first?.productType == .unstated)
            let defined = try await server.send(
                "PUT", "/v1/admin/catalog/products/\(retired)", token: server.adminKey,
                json: ProductDefinition(type: .nonConsumable, entitlements: ["pro"]))
            #expect(defined.status == 200)
            let after = try await server.send("GET", "/v1/entitlements", token: account.token).decode(Snapshot.self)
            #expect(after.entitlements.map(\.entitlementId) == ["pro"])
        }
    }

    @Test func aRestoreWithoutAReceiptAsksAppleNothing() async throws {
        try await withReceiptServer(reply: { _ in .status(21010) }) { server, standIn in
            let account = try await server.signUp()
            let response = try await server.restore([], token: account.token)
            #expect(response.verdicts.isEmpty)
            #expect(await standIn.requests.isEmpty)
        }
    }

    @Test func aReceiptAppleRejectsIsA422NamingTheReceiptAndNoEntryIsStored() async throws {
        try await withReceiptServer(reply: { _ in .status(21010) }) { server, _ in
            let account = try await server.signUp()
            let versions = try await server.versions()
            let lifetime = server.entry(TestPurchases.record(purchased: server.clock.now()))

            let response = try await Self.restore([lifetime], on: server, token: account.token)

            #expect(response.status == 422)
            #expect(response.problem?.type == ProblemType.receiptRejected.uri)
            #expect(response.problem?.field == "receipt")
            #expect(try await server.count("transactions") == 0)
            #expect(try await server.versions() == versions)
        }
    }

    @Test func whenAppleDoesNotAnswerTheRestoreIsA503WithRetryAfterAndChangesNothing() async throws {
        try await withReceiptServer(reply: { _ in .httpStatus(503) }) { server, standIn in
            let account = try await server.signUp()
            let lifetime = server.entry(TestPurchases.record(purchased: server.clock.now()))

            let response = try await Self.restore([lifetime], on: server, token: account.token)

            #expect(response.status == 503)
            #expect(response.problem?.type == ProblemType.serviceUnavailable.uri)
            #expect(response.header("Retry-After") != nil)
            #expect(try await server.count("transactions") == 0)
            #expect(await standIn.requests.count >= 1)
        }
    }

    /// The server's receipt timeouts bound the restore: an endpoint slower than one request's
    /// timeout is asked again, and the device gets its 503 once the whole verification's
    /// time is up, not when Apple's answer finally comes.
    @Test func anEndpointSlowerThanTheTimeoutsIsAskedAgainThenTheRestoreIsA503() async throws {
        try await withReceiptServer(
            reply: { _ in .delayed(.seconds(5), .status(0)) },
            configure: {
                $0.verifyReceiptRequestTimeout = .milliseconds(300)
                $0.verifyReceiptTotalTimeout = .milliseconds(1_500)
            }
        ) { server, standIn in
            let account = try await server.signUp()
            let lifetime = server.entry(TestPurchases.record(purchased: server.clock.now()))

            let response = try await Self.restore([lifetime], on: server, token: account.token)

            #expect(response.status == 503)
            #expect(response.header("Retry-After") != nil)
            #expect(try await server.count("transactions") == 0)
            #expect(await standIn.requests.count >= 2, "the request that timed out was sent again")
        }
    }

    /// Bounds: the body limit (413) first, then verifyReceipt's own limit on a receipt, checked
    /// before Apple is asked; text that is not base64 is refused unsent too.
    @Test func aReceiptTooLargeOrNotBase64IsRefusedUnsentNamingTheReceipt() async throws {
        try await withReceiptServer(reply: { _ in .status(0) }, configure: { $0.maxBodyBytes = 8 * 1024 * 1024 }) { server, standIn in
            let account = try await server.signUp()
            let tooLarge = String(repeating: "QUFB", count: 1024 * 1024 + 1)
            let overBody = String(repeating: "QUFB", count: 2 * 1024 * 1024 + 1)

            for receipt in [tooLarge, "not base64!"] {
                let response = try await Self.restore(receipt: receipt, on: server, token: account.token)
                #expect(response.status == 422)
                #expect(response.problem?.field == "receipt")
            }
            let response = try await Self.restore(receipt: overBody, on: server, token: account.token)
            #expect(response.status == 413)
            #expect(await standIn.requests.isEmpty)
            #expect(try await server.count("transactions") == 0)
        }
    }

    /// The same environment rule as an upload's receipt: a receipt that needed the 21007 retry
    /// is a Sandbox one.
    @Test(arguments: [(SandboxInProduction.grant, VerdictKind.accepted), (.refuse, .rejected)])
    func aProductionServerTreatsASandboxReceiptByTheSetting(sandbox: SandboxInProduction, verdict: VerdictKind) async throws {
        let id = TestPurchases.nextId()
        let entry = Self.lifetimeEntry(id)
        try await withReceiptServer(reply: Self.sandboxReceipt([entry]), configure: EnvironmentTests.production(sandbox)) {
            server, _ in
            let account = try await server.signUp()
            let response = try await Self.restore(on: server, token: account.token)
            let body = try response.decode(SyncResponse.self)
            #expect(body.verdicts.map(\.verdict) == [verdict])
            if verdict == .rejected {
                #expect(body.verdicts.first?.reason?.contains(EnvironmentTests.refusal) == true)
                #expect(try await server.count("transactions") == 0)
            } else {
                #expect(body.snapshot.entitlements.map(\.environment) == [.sandbox])
            }
        }
    }

    @Test func aDryRunAsksAppleAndAnswersTheVerdictsButStoresNothing() async throws {
        let id = TestPurchases.nextId()
        let entry = Self.lifetimeEntry(id)
        try await withReceiptServer(reply: Self.sandboxReceipt([entry])) { server, _ in
            let account = try await server.signUp()
            let response = try await Self.restore(dryRun: true, on: server, token: account.token)
            let body = try response.decode(SyncResponse.self)
            #expect(body.verdicts.map(\.verdict) == [.accepted])
            #expect(body.snapshot.signature.isEmpty)
            #expect(body.snapshot.entitlements.map(\.entitlementId) == ["premium"])
            #expect(try await server.count("transactions") == 0)
        }
    }

    /// A receipt's purchase owned by another account moves only when the user asks, as any
    /// entry's does.
    @Test func aReceiptsPurchaseOwnedElsewhereMovesOnlyOnAUserInitiatedRestore() async throws {
        let id = TestPurchases.nextId()
        let entry = Self.lifetimeEntry(id)
        try await withReceiptServer(reply: Self.sandboxReceipt([entry])) { server, _ in
            let first = try await server.signUp()
            let second = try await server.signUp()
            _ = try await Self.restore(on: server, token: first.token)

            let background = try await Self.restore(userInitiated: false, on: server, token: second.token)
            #expect(try background.decode(SyncResponse.self).verdicts.map(\.verdict) == [.ownedByOtherAccount])
            #expect(try await server.owner(of: id) == first.accountId)

            let asked = try await Self.restore(on: server, token: second.token)
            #expect(try asked.decode(SyncResponse.self).verdicts.map(\.verdict) == [.transferred])
            #expect(try await server.owner(of: id) == second.accountId)
        }
    }

    /// A receipt states no signing date: each answer of Apple's is a version signed when it
    /// answered, so the same receipt restored again says nothing new and is `known`.
    @Test func theSameReceiptRestoredAgainIsKnownAndBumpsNoVersion() async throws {
        let id = TestPurchases.nextId()
        try await withReceiptServer(reply: Self.sandboxReceipt([Self.lifetimeEntry(id)])) { server, _ in
            let account = try await server.signUp()
            let first = try await Self.restore(on: server, token: account.token).decode(SyncResponse.self)
            #expect(first.verdicts.map(\.verdict) == [.accepted])
            let versions = try await server.versions()
            server.clock.advance(by: 600)

            let again = try await Self.restore(on: server, token: account.token).decode(SyncResponse.self)

            #expect(again.verdicts.map(\.verdict) == [.known])
            #expect(again.snapshot.version == first.snapshot.version)
            #expect(try await server.versions() == versions)
            #expect(try await server.count("transactions") == 1)
        }
    }

    /// A version Apple signed always beats one read from a receipt: an old receipt restored
    /// after a refund does not bring the purchase back.
    @Test func aReceiptNeverBeatsTheSignedVersionOfARefund() async throws {
        let id = TestPurchases.nextId()
        try await withReceiptServer(reply: Self.sandboxReceipt([Self.lifetimeEntry(id)])) { server, _ in
            let account = try await server.signUp()
            let now = server.clock.now()
            _ = try await server.buy(TestPurchases.record(id: id, purchased: now.addingTimeInterval(-3600)), token: account.token)
            let refunded = TestPurchases.record(id: id, purchased: now.addingTimeInterval(-3600), signed: now, revoked: now)
            #expect(try await server.notify(.refund, transaction: refunded) == "processed")
            let versions = try await server.versions()
            server.clock.advance(by: 600)

            let response = try await Self.restore(on: server, token: account.token).decode(SyncResponse.self)

            #expect(response.verdicts.map(\.verdict) == [.known])
            #expect(response.snapshot.entitlements.isEmpty)
            #expect(response.snapshot.transactions.map(\.revocationDate) == [refunded.revocationDate])
            #expect(try await server.versions() == versions)
        }
    }
}
