import AppStorePayloads
import AppStoreVerification
import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// One environment rule for signed transactions, legacy receipts and Server Notifications: a
/// Production server takes Sandbox data (App Review, TestFlight) and grants or refuses it by
/// `STORESYNC_SANDBOX_IN_PRODUCTION`; Xcode and LocalTesting data never; every other server
/// takes its own environment's data only.
@Suite struct EnvironmentTests {
    static func production(_ sandbox: SandboxInProduction) -> @Sendable (inout ServerConfiguration) -> Void {
        { settings in
            settings.environment = .production
            settings.sandboxInProduction = sandbox
        }
    }

    static let refusal = "STORESYNC_SANDBOX_IN_PRODUCTION=refuse"

    @Test func aProductionServerGrantsASandboxPurchaseAndEveryAnswerSaysSandbox() async throws {
        try await withServer(configure: Self.production(.grant)) { server in
            let account = try await server.signUp()
            let bought = TestPurchases.record(purchased: server.clock.now(), environment: .sandbox)

            let response = try await server.buy(bought, token: account.token)

            #expect(response.verdicts.map(\.verdict) == [.accepted])
            #expect(response.snapshot.entitlements.map(\.environment) == [.sandbox])
            #expect(response.snapshot.transactions.map(\.environment) == [.sandbox])
            let lookup = try await server.send(
                "GET", "/v1/admin/accounts/\(account.accountId)/entitlements", token: server.adminKey)
            #expect(try lookup.decode(Snapshot.self).entitlements.map(\.environment) == [.sandbox])
            let byToken = try await server.send(
                "GET", "/v1/admin/entitlements?appAccountToken=\(account.appAccountToken)", token: server.adminKey)
            #expect(try byToken.decode(Snapshot.self).entitlements.map(\.environment) == [.sandbox])
            let history = try await server.send(
                "GET", "/v1/admin/purchases/\(bought.originalTransactionId)", token: server.adminKey)
            #expect(try history.decode(PurchaseHistory.self).environment == .sandbox)
        }
    }

    @Test func aProductionServerGrantsItsOwnPurchasesMarkedProduction() async throws {
        try await withServer(configure: Self.production(.refuse)) { server in
            let account = try await server.signUp()
            let response = try await server.buy(
                TestPurchases.record(purchased: server.clock.now(), environment: .production), token: account.token)
            #expect(response.verdicts.map(\.verdict) == [.accepted])
            #expect(response.snapshot.entitlements.map(\.environment) == [.production])
        }
    }

    @Test func underRefuseASandboxPurchaseIsRejectedNamingTheSettingAndNothingIsStored() async throws {
        try await withServer(configure: Self.production(.refuse)) { server in
            let account = try await server.signUp()
            let before = try await server.tableCounts()
            let bought = TestPurchases.record(purchased: server.clock.now(), environment: .sandbox)

            let uploaded = try await server.upload(server.signer.signTransaction(bought), token: account.token, expect: 422)
            let restored = try await server.restore([server.entry(bought)], token: account.token)

            #expect(uploaded.problem?.type == ProblemType.environmentRefused.uri, "a policy, not a forgery")
            #expect(uploaded.problem?.field == "signedTransaction")
            #expect(uploaded.problem?.detail?.contains(Self.refusal) == true)
            #expect(restored.verdicts.map(\.verdict) == [.rejected])
            #expect(restored.verdicts.first?.reason?.contains(Self.refusal) == true)
            #expect(restored.snapshot.entitlements.isEmpty)
            #expect(try await server.tableCounts() == before)
        }
    }

    @Test(arguments: [AppStoreEnvironment.xcode, .localTesting])
    func aProductionServerNeverTakesXcodeOrLocalTestingData(environment: AppStoreEnvironment) async throws {
        try await withServer(configure: Self.production(.grant)) { server in
            let account = try await server.signUp()
            let before = try await server.tableCounts()
            let bought = TestPurchases.record(purchased: server.clock.now(), environment: environment)

            let uploaded = try await server.upload(server.signer.signTransaction(bought), token: account.token, expect: 422)
            #expect(uploaded.problem?.type == ProblemType.environmentRefused.uri)
            let restored = try await server.restore([server.entry(bought)], token: account.token)
            #expect(restored.verdicts.map(\.verdict) == [.rejected])
            #expect(restored.verdicts.first?.reason?.contains("environment") == true)
            let notification = server.signer.signNotification(
                type: .oneTimeCharge, signedDate: server.clock.now(), environment: environment, transaction: bought)
            let posted = try await server.send(
                "POST", "/v1/notifications/appstore", json: NotificationRequest(signedPayload: notification))
            #expect(posted.status == 422)
            #expect(try await server.tableCounts() == before)
        }
    }

    @Test func aSandboxServerTakesNoProductionPurchase() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let bought = TestPurchases.record(purchased: server.clock.now(), environment: .production)
            let uploaded = try await server.upload(server.signer.signTransaction(bought), token: account.token, expect: 422)
            #expect(uploaded.problem?.type == ProblemType.environmentRefused.uri)
            #expect(try await server.count("transactions") == 0)
        }
    }

    /// Xcode and StoreKit Testing sign with a certificate of the developer's Mac, which no real
    /// server trusts: what such a transaction claims decides nothing but the kind of refusal,
    /// and it is refused whatever its signature.
    @Test(arguments: [AppStoreEnvironment.xcode, .localTesting])
    func anXcodeSignedPurchaseIsRefusedForItsEnvironmentEvenUnverified(environment: AppStoreEnvironment) async throws {
        try await withServer(configure: Self.production(.grant)) { server in
            let account = try await server.signUp()
            let xcode = AppStoreTestSigner(pki: try TestPKI.make(name: "Xcode"))
            let bought = TestPurchases.record(purchased: server.clock.now(), environment: environment)

            let uploaded = try await server.upload(xcode.signTransaction(bought), token: account.token, expect: 422)
            #expect(uploaded.problem?.type == ProblemType.environmentRefused.uri)
            #expect(uploaded.problem?.detail?.contains(environment.appleName) == true)
            var entry = bought
            entry.signedTransaction = xcode.signTransaction(bought)
            let restored = try await server.restore([entry], token: account.token)
            #expect(restored.verdicts.map(\.verdict) == [.rejected], "a restore's verdict is what it was")
            #expect(try await server.count("transactions") == 0)
        }
    }

    @Test func aForgeryNamingAnEnvironmentTheServerTakesIsStillInvalidSignedData() async throws {
        try await withServer(configure: Self.production(.grant)) { server in
            let account = try await server.signUp()
            let forger = AppStoreTestSigner(pki: try TestPKI.make(name: "Forger"))
            for environment in [AppStoreEnvironment.production, .sandbox] {
                let bought = TestPurchases.record(purchased: server.clock.now(), environment: environment)
                let uploaded = try await server.upload(forger.signTransaction(bought), token: account.token, expect: 422)
                #expect(uploaded.problem?.type == ProblemType.invalidSignedData.uri)
            }
            #expect(try await server.count("transactions") == 0)
        }
    }

    /// Uploads a receipt of one lifetime purchase that Apple's stand-in says belongs to
    /// `environment` (a Sandbox one answers 21007 at the production endpoint first).
    ///
    /// - Returns: The answer, and the endpoints the server asked in order.
    private static func uploadReceipt(
        of environment: AppStoreEnvironment, configure: @escaping @Sendable (inout ServerConfiguration) -> Void,
        _ check: @escaping @Sendable (TestApp, SyncResponse) async throws -> Void
    ) async throws -> [AppStoreEnvironment] {
        let entry = ReceiptEntry(
            productId: TestCatalog.lifetime, transactionId: TestPurchases.nextId(), originalTransactionId: TestPurchases.nextId(),
            purchaseDateMs: String(Date().addingTimeInterval(-3600).millisecondsSince1970))
        return try await AppStoreReceiptStandIn.run(reply: { request in
            environment == .sandbox && request.endpoint == .production
                ? .status(21007) : .receipt(bundleId: "com.example.storesync", environment: environment, inApp: [entry])
        }) { standIn in
            try await withServer(configure: { settings in
                configure(&settings)
                settings.verifyReceiptURL = standIn.productionURL
                settings.verifyReceiptSandboxURL = standIn.sandboxURL
            }) { server in
                let account = try await server.signUp()
                let response = try await server.uploadReceipt(token: account.token)
                #expect(response.status == 200, "\(response.problem?.detail ?? "")")
                try await check(server, try response.decode(SyncResponse.self))
            }
            return await standIn.requests.map(\.endpoint)
        }
    }

    /// A receipt that needed the 21007 retry is a Sandbox receipt: the same rule as a JWS.
    @Test(arguments: [(SandboxInProduction.grant, VerdictKind.accepted), (.refuse, .rejected)])
    func aProductionServerTreatsAReceiptFromTheSandboxByTheSetting(sandbox: SandboxInProduction, verdict: VerdictKind)
        async throws
    {
        let asked = try await Self.uploadReceipt(of: .sandbox, configure: Self.production(sandbox)) { server, body in
            #expect(body.verdicts.map(\.verdict) == [verdict])
            if verdict == .accepted {
                #expect(body.snapshot.entitlements.map(\.environment) == [.sandbox])
            } else {
                #expect(body.verdicts.first?.reason?.contains(Self.refusal) == true)
                let stored = try await server.count("transactions")
                #expect(stored == 0)
            }
        }
        #expect(asked == [.production, .sandbox])
    }

    @Test func aSandboxServerRejectsAProductionReceipt() async throws {
        _ = try await Self.uploadReceipt(of: .production, configure: { _ in }) { server, body in
            #expect(body.verdicts.map(\.verdict) == [.rejected])
            #expect(body.verdicts.first?.reason?.contains("Production environment") == true)
            let stored = try await server.count("transactions")
            #expect(stored == 0)
        }
    }

    @Test func aProductionServerAppliesASandboxRefundUnderGrant() async throws {
        try await withServer(configure: Self.production(.grant)) { server in
            let account = try await server.signUp()
            let bought = TestPurchases.record(purchased: server.clock.now(), environment: .sandbox)
            _ = try await server.buy(bought, token: account.token)
            server.clock.advance(by: 60)
            var refunded = bought
            (refunded.revocationDate, refunded.revocationReason, refunded.signedDate) = (server.clock.now(), .other, server.clock.now())

            #expect(try await server.notify(.refund, transaction: refunded) == "processed")
            #expect(try await server.entitlementIds(token: account.token).isEmpty)
        }
    }

    @Test func underRefuseASandboxNotificationIsAnsweredAndChangesNothing() async throws {
        try await withServer(configure: Self.production(.refuse)) { server in
            let account = try await server.signUp()
            let bought = TestPurchases.record(purchased: server.clock.now(), environment: .production)
            _ = try await server.buy(bought, token: account.token)
            let before = try await server.tableCounts()
            var sandbox = bought
            (sandbox.environment, sandbox.revocationDate, sandbox.signedDate) = (.sandbox, server.clock.now(), server.clock.now())

            let refusedSeries = #"storesync_appstore_notifications_total{type="REFUND",outcome="refused"}"#
            let counted = MetricsSamples(try await server.send("GET", "/metrics").body).value(refusedSeries)
            #expect(try await server.notify(.refund, transaction: sandbox) == "refused")
            #expect(try await server.tableCounts() == before)
            #expect(try await server.entitlementIds(token: account.token) == ["premium"])
            #expect(MetricsSamples(try await server.send("GET", "/metrics").body).value(refusedSeries) >= counted + 1)
        }
    }
}
