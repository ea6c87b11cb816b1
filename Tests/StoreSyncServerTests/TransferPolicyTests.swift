import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Same Apple ID, two app accounts: X buys, Y restores — once per transfer policy.
@Suite struct TransferPolicyTests {
    struct Expectation: Sendable, CustomStringConvertible {
        let policy: TransferPolicy
        let subscription: Bool
        let verdict: VerdictKind
        let ownerIsY: Bool
        let xKeepsPremium: Bool
        let yGetsPremium: Bool
        let events: [String]

        var description: String { "\(policy.rawValue)\(subscription ? " (active subscription)" : "")" }
    }

    static let table: [Expectation] = [
        Expectation(
            policy: .transfer, subscription: false, verdict: .transferred, ownerIsY: true, xKeepsPremium: false,
            yGetsPremium: true, events: ["purchaseClaimed", "ownershipTransferred", "ownershipTransferred"]),
        Expectation(
            policy: .transferIfNoActiveSubscription, subscription: false, verdict: .transferred, ownerIsY: true,
            xKeepsPremium: false, yGetsPremium: true,
            events: ["purchaseClaimed", "ownershipTransferred", "ownershipTransferred"]),
        Expectation(
            policy: .transferIfNoActiveSubscription, subscription: true, verdict: .ownedByOtherAccount, ownerIsY: false,
            xKeepsPremium: true, yGetsPremium: false, events: ["purchaseClaimed"]),
        Expectation(
            policy: .keep, subscription: false, verdict: .ownedByOtherAccount, ownerIsY: false, xKeepsPremium: true,
            yGetsPremium: false, events: ["purchaseClaimed"]),
        Expectation(
            policy: .share, subscription: false, verdict: .accepted, ownerIsY: false, xKeepsPremium: true,
            yGetsPremium: true, events: ["purchaseClaimed", "purchaseShared"]),
    ]

    @Test(arguments: table)
    func secondAccountRestoringAPurchaseFollowsThePolicy(_ expected: Expectation) async throws {
        try await withServer(configure: { $0.transferPolicy = expected.policy }) { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let now = server.clock.now()
            let purchase = expected.subscription
                ? TestPurchases.record(
                    TestCatalog.monthly, type: .autoRenewable, purchased: now, expires: now.addingTimeInterval(30 * 86_400),
                    group: TestCatalog.subscriptionGroup)
                : TestPurchases.record(purchased: now)
            _ = try await server.buy(purchase, token: x.token)
            let versionsBefore = try await server.versions()

            let restored = try await server.restore([server.entry(purchase)], userInitiated: true, token: y.token)

            #expect(restored.verdicts.map(\.verdict) == [expected.verdict])
            #expect(try await server.owner(of: purchase.originalTransactionId) == (expected.ownerIsY ? y.accountId : x.accountId))
            #expect(try await server.entitlementIds(token: x.token).contains("premium") == expected.xKeepsPremium)
            #expect(try await server.entitlementIds(token: y.token).contains("premium") == expected.yGetsPremium)
            #expect(try await server.events(of: purchase.originalTransactionId).map(\.kind) == expected.events)
            let versionsAfter = try await server.versions()
            let xBumped = versionsAfter[x.accountId]! > versionsBefore[x.accountId]!
            #expect(xBumped == (expected.verdict == .transferred), "the account that lost it has a new version")
        }
    }

    /// Whose subscriptions are active is asked for every contested purchase of a restore at
    /// once: each purchase is judged by its own owner's ledger.
    @Test func aRestoreOfPurchasesOfSeveralOwnersJudgesEachByItsOwnersSubscription() async throws {
        try await withServer(configure: { $0.transferPolicy = .transferIfNoActiveSubscription }) { server in
            let x = try await server.signUp()
            let z = try await server.signUp()
            let y = try await server.signUp()
            let now = server.clock.now()
            func monthly(purchased: Date) -> TransactionRecord {
                TestPurchases.record(
                    TestCatalog.monthly, type: .autoRenewable, purchased: purchased,
                    expires: purchased.addingTimeInterval(30 * 86_400), group: TestCatalog.subscriptionGroup)
            }
            let activeOfX = monthly(purchased: now)
            let lapsedOfX = monthly(purchased: now.addingTimeInterval(-90 * 86_400))
            let lifetimeOfX = TestPurchases.record(purchased: now)
            let activeOfZ = monthly(purchased: now)
            for purchase in [activeOfX, lapsedOfX, lifetimeOfX] { _ = try await server.buy(purchase, token: x.token) }
            _ = try await server.buy(activeOfZ, token: z.token)

            let purchases = [activeOfX, lapsedOfX, lifetimeOfX, activeOfZ]
            let restored = try await server.restore(purchases.map { server.entry($0) }, userInitiated: true, token: y.token)

            #expect(restored.verdicts.map(\.verdict) == [.ownedByOtherAccount, .transferred, .transferred, .ownedByOtherAccount])
            var owners: [UUID?] = []
            for purchase in purchases { owners.append(try await server.owner(of: purchase.originalTransactionId)) }
            #expect(owners == [x.accountId, y.accountId, y.accountId, z.accountId])
        }
    }

    /// All the moves of a restore are written together: purchases leave two accounts, each with
    /// its versions and renewal info.
    @Test func purchasesMovingFromSeveralAccountsTakeTheirVersionsAndRenewalInfoAlong() async throws {
        try await withServer { server in
            let x = try await server.signUp()
            let z = try await server.signUp()
            let y = try await server.signUp()
            let monthly = try await server.buyLapsedSubscriptionInGracePeriod(token: x.token)
            #expect(try await server.entitlementIds(token: x.token) == ["premium"])
            let lifetime = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(lifetime, token: z.token)

            let restored = try await server.restore([server.entry(monthly), server.entry(lifetime)], userInitiated: true, token: y.token)

            #expect(restored.verdicts.map(\.verdict) == [.transferred, .transferred])
            let holders = try await server.database.withConnection { connection in
                try await connection.query(
                    """
                    SELECT 'transactions', account_id FROM transactions
                    UNION ALL SELECT 'renewal_infos', account_id FROM renewal_infos
                    """
                ).map { try $0.decode((String, UUID).self) }
            }
            #expect(holders.filter { $0.0 == "transactions" }.map(\.1) == [y.accountId, y.accountId])
            #expect(holders.filter { $0.0 == "renewal_infos" }.map(\.1) == [y.accountId])
            #expect(try await server.entitlementIds(token: y.token) == ["premium"])
            #expect(try await server.entitlementIds(token: x.token).isEmpty)
            #expect(try await server.entitlementIds(token: z.token).isEmpty)
            #expect(try await server.owner(of: monthly.originalTransactionId) == y.accountId)
            #expect(try await server.owner(of: lifetime.originalTransactionId) == y.accountId)
        }
    }

    @Test(arguments: TransferPolicy.allCases)
    func aTransactionCarryingAnAppAccountTokenStaysWithThatAccount(_ policy: TransferPolicy) async throws {
        try await withServer(configure: { $0.transferPolicy = policy }) { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now(), token: x.appAccountToken)
            _ = try await server.buy(purchase, token: x.token)

            let restored = try await server.restore([server.entry(purchase)], userInitiated: true, token: y.token)

            #expect(restored.verdicts.map(\.verdict) == [.ownedByOtherAccount])
            #expect(try await server.owner(of: purchase.originalTransactionId) == x.accountId)
            #expect(try await server.entitlementIds(token: x.token) == ["premium"])
            #expect(try await server.entitlementIds(token: y.token).isEmpty)
        }
    }

    /// An upgrade bought while signed in to another account puts a second token in the
    /// purchase: its newest record decides, in whatever order a restore lists them.
    @Test func aPurchaseWithTwoTokensGoesToItsNewestRecordsAccountInAnyOrder() async throws {
        try await withServer { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let presenter = try await server.signUp()
            let now = server.clock.now()
            let day: TimeInterval = 86_400
            let monthly = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, purchased: now.addingTimeInterval(-10 * day),
                expires: now.addingTimeInterval(20 * day), token: x.appAccountToken, upgraded: true,
                group: TestCatalog.subscriptionGroup)
            let upgrade = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, original: monthly.originalTransactionId,
                purchased: now.addingTimeInterval(-day), expires: now.addingTimeInterval(29 * day), token: y.appAccountToken,
                group: TestCatalog.subscriptionGroup)

            _ = try await server.restore([server.entry(monthly), server.entry(upgrade)], token: presenter.token)
            #expect(try await server.owner(of: monthly.originalTransactionId) == y.accountId)
            _ = try await server.restore([server.entry(upgrade), server.entry(monthly)], token: presenter.token)
            #expect(try await server.owner(of: monthly.originalTransactionId) == y.accountId)
            let kinds = try await server.events(of: monthly.originalTransactionId).map(\.kind)
            #expect(!kinds.contains("ownershipTransferred"), "\(kinds)")
        }
    }

    @Test func aPurchaseUploadedByAnotherAccountGoesToTheAccountItsTokenNames() async throws {
        try await withServer { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now(), token: x.appAccountToken)
            let response = try await server.upload(server.signer.signTransaction(purchase), token: y.token, expect: 409)
            #expect(response.problem?.type == ProblemType.ownedByOtherAccount.uri)
            #expect(try await server.owner(of: purchase.originalTransactionId) == x.accountId)
            #expect(try await server.entitlementIds(token: x.token) == ["premium"])
        }
    }

    @Test func aBackgroundUploadNeverMovesAPurchase() async throws {
        try await withServer { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(purchase, token: x.token)

            let upload = try await server.upload(server.signer.signTransaction(purchase), token: y.token, expect: 409)
            #expect(upload.problem?.type == ProblemType.ownedByOtherAccount.uri)
            let background = try await server.restore([server.entry(purchase)], userInitiated: false, token: y.token)
            #expect(background.verdicts.map(\.verdict) == [.ownedByOtherAccount])
            #expect(try await server.owner(of: purchase.originalTransactionId) == x.accountId)
            #expect(try await server.entitlementIds(token: x.token) == ["premium"])
        }
    }

    @Test func aDryRunAnswersLikeARealRestoreAndChangesNoRow() async throws {
        try await withServer { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(purchase, token: x.token)
            let countsBefore = try await server.tableCounts()
            let versionsBefore = try await server.versions()

            let dryRun = try await server.restore([server.entry(purchase)], dryRun: true, token: y.token)

            #expect(try await server.tableCounts() == countsBefore)
            #expect(try await server.versions() == versionsBefore)
            #expect(try await server.owner(of: purchase.originalTransactionId) == x.accountId)
            let real = try await server.restore([server.entry(purchase)], token: y.token)
            #expect(dryRun.verdicts == real.verdicts)
            #expect(dryRun.snapshot.entitlements == real.snapshot.entitlements)
            #expect(dryRun.snapshot.version == real.snapshot.version)
        }
    }
}
