import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `POST /v1/admin/purchases/{originalTransactionId}/refresh`: Apple's history and status of a
/// purchase merged through the same ledger rules and events as every other input.
@Suite struct PurchaseRefreshTests {
    /// An account holding a subscription that lapsed a day ago, and Apple's renewal of it that no
    /// device uploaded.
    private static func lapsedSubscriber(on server: TestServer, apple: AppStoreServerAPIStandIn) async throws
        -> (account: SessionResponse, first: TransactionRecord, renewal: TransactionRecord)
    {
        let account = try await server.signUp()
        let first = TestPurchases.subscription(at: server.clock.now(), daysAgo: 31)
        _ = try await server.buy(first, token: account.token)
        let renewal = TestPurchases.renewal(of: first)
        await apple.addTransactions([first, renewal])
        return (account, first, renewal)
    }

    @Test func aRenewalNobodyUploadedIsMergedAndTheAnswerSaysWhatChanged() async throws {
        try await withAppStoreAPIServer { server, apple in
            let (account, first, renewal) = try await Self.lapsedSubscriber(on: server, apple: apple)

            let refreshed = try await server.refresh(first.originalTransactionId).decode(PurchaseRefreshResponse.self)
            #expect(refreshed.holders == [account.accountId])
            #expect(refreshed.versionsAdded.map(\.transactionId) == [renewal.transactionId])
            #expect(refreshed.events.map(\.kind) == ["renewed"])
            #expect(refreshed.accountVersions.map(\.accountId) == [account.accountId])
            #expect(refreshed.renewalInfoUpdated == [account.accountId])
            #expect(refreshed.skippedItems == 0)
            let snapshot = try await server.snapshot(token: account.token)
            #expect(snapshot.entitlements.first?.expiresAt == renewal.expiresDate)
            #expect(snapshot.version == refreshed.accountVersions.first?.version)
        }
    }

    /// A chain whose transactions carry two accounts' tokens (an upgrade bought while signed in
    /// to another account) goes, when nobody holds it, to the newest transaction's account, as
    /// a restore of it would decide: not to whichever token comes first.
    @Test(arguments: [false, true])
    func aPurchaseNobodyHoldsGoesToTheAccountOfItsNewestToken(newestFirst: Bool) async throws {
        try await withAppStoreAPIServer { server, apple in
            let earlier = try await server.signUp()
            let later = try await server.signUp()
            let now = server.clock.now()
            let day: TimeInterval = 86_400
            let first = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, purchased: now.addingTimeInterval(-40 * day),
                expires: now.addingTimeInterval(-10 * day), token: earlier.appAccountToken, group: TestCatalog.subscriptionGroup)
            let newest = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, original: first.originalTransactionId,
                purchased: now.addingTimeInterval(-10 * day), expires: now.addingTimeInterval(20 * day),
                token: later.appAccountToken, group: TestCatalog.subscriptionGroup)
            await apple.addTransactions(newestFirst ? [newest, first] : [first, newest])

            let refreshed = try await server.refresh(first.originalTransactionId).decode(PurchaseRefreshResponse.self)

            #expect(refreshed.holders == [later.accountId])
            #expect(try await server.owner(of: first.originalTransactionId) == later.accountId)
            #expect(try await server.entitlementIds(token: later.token) == ["premium"])
        }
    }

    @Test func aSecondRefreshChangesNothing() async throws {
        try await withAppStoreAPIServer { server, apple in
            let (account, first, _) = try await Self.lapsedSubscriber(on: server, apple: apple)
            _ = try await server.refresh(first.originalTransactionId)
            let version = try await server.versions()[account.accountId]
            let rows = try await server.count("transactions")

            let again = try await server.refresh(first.originalTransactionId).decode(PurchaseRefreshResponse.self)
            #expect(again.versionsAdded.isEmpty)
            #expect(again.events.isEmpty)
            #expect(again.accountVersions.isEmpty)
            #expect(try await server.versions()[account.accountId] == version)
            #expect(try await server.count("transactions") == rows)
            #expect(try await server.events(of: first.originalTransactionId).map(\.kind) == ["purchaseClaimed", "renewed"])
        }
    }

    @Test func aRefundFoundByARefreshRevokesWithItsEvent() async throws {
        try await withAppStoreAPIServer { server, apple in
            let account = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now().addingTimeInterval(-3_600))
            _ = try await server.buy(purchase, token: account.token)
            await apple.addTransactions([TestPurchases.refund(of: purchase, at: server.clock.now())])

            let refreshed = try await server.refresh(purchase.originalTransactionId).decode(PurchaseRefreshResponse.self)
            #expect(refreshed.events.map(\.kind) == ["revoked"])
            #expect(try await server.entitlementIds(token: account.token).isEmpty)
        }
    }

    @Test func anExpirySaidByAppleIsAnnouncedOnce() async throws {
        try await withAppStoreAPIServer { server, apple in
            let account = try await server.signUp()
            let lapsed = TestPurchases.subscription(at: server.clock.now(), daysAgo: 40)
            _ = try await server.buy(lapsed, token: account.token)
            await apple.addTransactions([lapsed])
            await apple.setRenewalInfo(RenewalInfo(
                originalTransactionId: lapsed.originalTransactionId, autoRenewProductId: TestCatalog.monthly,
                productId: TestCatalog.monthly, autoRenewStatus: false, expirationIntent: 1, environment: .sandbox,
                signedDate: server.clock.now()))

            let first = try await server.refresh(lapsed.originalTransactionId).decode(PurchaseRefreshResponse.self)
            #expect(first.events.map(\.kind) == ["expired"])
            #expect(first.renewalInfoUpdated == [account.accountId])
            server.clock.advance(by: 60)
            let second = try await server.refresh(lapsed.originalTransactionId).decode(PurchaseRefreshResponse.self)
            #expect(second.events.isEmpty)
            #expect(second.renewalInfoUpdated.isEmpty)
        }
    }

    /// Reconciliation often sees an expiry before Apple's EXPIRED notification arrives; a
    /// webhook receiver hears of it once, not once per way it was learnt.
    @Test func anExpiryTheAPIReportedIsNotAnnouncedAgainByTheNotification() async throws {
        try await withAppStoreAPIServer { server, apple in
            let account = try await server.signUp()
            let lapsed = TestPurchases.subscription(at: server.clock.now(), daysAgo: 40)
            _ = try await server.buy(lapsed, token: account.token)
            await apple.addTransactions([lapsed])
            let refreshed = try await server.refresh(lapsed.originalTransactionId).decode(PurchaseRefreshResponse.self)
            #expect(refreshed.events.map(\.kind) == ["expired"])

            server.clock.advance(by: 60)
            _ = try await server.notify(.expired, subtype: .voluntary, transaction: lapsed)
            _ = try await server.notify(.gracePeriodExpired, transaction: lapsed)

            let kinds = try await server.events(of: lapsed.originalTransactionId).map(\.kind)
            #expect(kinds.filter { $0 == "expired" }.count == 1, "\(kinds)")
        }
    }

    @Test func aPurchaseNobodyHoldsIsAnsweredAndNothingIsStored() async throws {
        try await withAppStoreAPIServer { server, apple in
            let purchase = TestPurchases.record(purchased: server.clock.now())
            await apple.addTransactions([purchase])

            let refreshed = try await server.refresh(purchase.originalTransactionId).decode(PurchaseRefreshResponse.self)
            #expect(refreshed.holders.isEmpty)
            #expect(refreshed.versionsAdded.isEmpty)
            #expect(try await server.count("transactions") == 0)
            #expect(try await server.count("unclaimed_versions") == 0)
        }
    }

    @Test func aPurchaseNobodyHoldsGoesToTheAccountItsTokenNames() async throws {
        try await withAppStoreAPIServer { server, apple in
            let account = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now(), token: account.appAccountToken)
            await apple.addTransactions([purchase])

            let refreshed = try await server.refresh(purchase.originalTransactionId).decode(PurchaseRefreshResponse.self)
            #expect(refreshed.holders == [account.accountId])
            #expect(refreshed.events.map(\.kind) == ["purchaseClaimed"])
            #expect(try await server.owner(of: purchase.originalTransactionId) == account.accountId)
            #expect(try await server.entitlementIds(token: account.token) == ["premium"])
        }
    }

    @Test(arguments: [AppStoreServerAPIStandInTampering.foreignBundle, .untrustedSigner, .undecodable])
    func anItemThatFailsVerificationIsSkippedAndNeverStored(_ tampering: AppStoreServerAPIStandInTampering) async throws {
        try await withAppStoreAPIServer { server, apple in
            let (_, first, renewal) = try await Self.lapsedSubscriber(on: server, apple: apple)
            await apple.tamper(transaction: renewal.transactionId, tampering)

            let refreshed = try await server.refresh(first.originalTransactionId).decode(PurchaseRefreshResponse.self)
            #expect(refreshed.skippedItems >= 1)
            #expect(!refreshed.versionsAdded.contains { $0.transactionId == renewal.transactionId })
            let stored = try await server.database.withConnection { connection in
                try await connection.query(
                    "SELECT count(*)::bigint FROM transactions WHERE transaction_id = \(renewal.transactionId)"
                ).first!.decode(Int.self)
            }
            #expect(stored == 0)
        }
    }

    @Test func aPurchaseAppleDoesNotKnowIsNotFound() async throws {
        try await withAppStoreAPIServer { server, _ in
            let response = try await server.refresh("100000000000", expect: 404)
            #expect(response.problem?.type == ProblemType.notFound.uri)
        }
    }

    @Test(arguments: [String(repeating: "1", count: 65), "12%2034", "..%2F..%2Fetc", "1;DROP", "%00", "%C3%A9"])
    func anIdOfTheWrongShapeIsRefusedBeforeAppleIsAsked(_ id: String) async throws {
        try await withAppStoreAPIServer { server, apple in
            try await server.startupRecoveryFinished()
            let before = await apple.requests.count
            let response = try await server.refresh(id, expect: 400)
            #expect(response.problem?.field == "originalTransactionId")
            #expect(await apple.requests.count == before)
        }
    }

    @Test func aKeyAppleRefusesIsAnsweredAsAnAppleErrorNamingTheKey() async throws {
        try await withAppStoreAPIServer { server, apple in
            let purchase = TestPurchases.record(purchased: server.clock.now())
            await apple.addTransactions([purchase])
            let directory = TestDirectory.make()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let otherKey = try TestAppStoreAPIKey(keyId: "OTHERKEY01").writeP8File(into: directory)
            try await withSecondInstance(of: server, configure: { settings in
                settings.appStoreAPIKey?.keyId = "OTHERKEY01"
                settings.appStoreAPIKey?.privateKeyPath = otherKey.path
            }) { refused in
                let response = try await refused.refresh(purchase.originalTransactionId, expect: 502)
                #expect(response.problem?.type == ProblemType.appStoreAPIError.uri)
                #expect(response.problem?.detail?.contains("OTHERKEY01") == true)
            }
        }
    }

    @Test func theRouteNeedsTheAdminKey() async throws {
        try await withAppStoreAPIServer { server, apple in
            let response = try await server.send("POST", "/v1/admin/purchases/1000/refresh", token: "not-the-admin-key")
            #expect(response.status == 401)
            #expect(await apple.requests.filter { $0.path.contains("/1000") }.isEmpty)
        }
    }

    @Test func aProductionServerAsksSandboxWhenProductionDoesNotKnowThePurchase() async throws {
        try await withAppStoreAPIServer(configure: { $0.environment = .production }) { server, apple in
            let account = try await server.signUp()
            // Bought by App Review in the sandbox against the production app.
            let purchase = TestPurchases.record(purchased: server.clock.now(), token: account.appAccountToken)
            await apple.addTransactions([purchase])

            let first = try await server.refresh(purchase.originalTransactionId).decode(PurchaseRefreshResponse.self)
            #expect(first.environment == .sandbox)
            #expect(first.holders == [account.accountId])
            let again = try await server.refresh(purchase.originalTransactionId).decode(PurchaseRefreshResponse.self)
            #expect(again.environment == .sandbox, "the stored environment picks the API")
            #expect(again.skippedItems == 0, "the production API was not asked again")
            #expect(try await server.entitlementIds(token: account.token) == ["premium"])
        }
    }
}
