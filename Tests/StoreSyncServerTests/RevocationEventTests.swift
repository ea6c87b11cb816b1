import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `revoked` and `revocationReversed` events (the audit trail, and the webhooks' outbox) go to
/// the account whose purchase changed, once, whoever presented the change.
@Suite struct RevocationEventTests {
    /// A refund signed a minute after the purchase.
    private static func refund(of purchase: TransactionRecord) -> TransactionRecord {
        var refund = purchase
        refund.revocationDate = purchase.signedDate.addingTimeInterval(60)
        refund.revocationReason = .other
        refund.signedDate = purchase.signedDate.addingTimeInterval(60)
        return refund
    }

    /// A device signed in to Y receives X's refund (StoreKit's `Transaction.updates` follows
    /// the Apple ID, not the app account) and uploads it: the version goes to X, the purchase's
    /// token's account, and so does the event; Apple's REFUND notification afterwards finds
    /// nothing new and announces nothing.
    @Test func aRefundUploadedByAnotherAccountIsAnnouncedToTheAccountItsTokenNames() async throws {
        try await withServer { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now(), token: x.appAccountToken)
            _ = try await server.buy(purchase, token: x.token)

            _ = try await server.upload(server.signer.signTransaction(Self.refund(of: purchase)), token: y.token, expect: 409)

            let events = try await server.events(of: purchase.originalTransactionId)
            #expect(events.map(\.kind) == ["purchaseClaimed", "revoked"])
            #expect(events.last?.account == x.accountId)
            #expect(try await server.entitlementIds(token: x.token).isEmpty)

            _ = try await server.notify(.refund, transaction: Self.refund(of: purchase))
            #expect(try await server.events(of: purchase.originalTransactionId).map(\.kind) == ["purchaseClaimed", "revoked"])
        }
    }

    /// A purchase that moves (or starts being shared) brings its history along; a renewal
    /// refunded long before is not a new refund for the account it reaches.
    @Test(arguments: [TransferPolicy.transfer, .share])
    func aPurchaseReachingAnotherAccountBringsNoOldRefundAlong(_ policy: TransferPolicy) async throws {
        try await withServer(configure: { $0.transferPolicy = policy }) { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let now = server.clock.now()
            let day: TimeInterval = 86_400
            let first = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, purchased: now.addingTimeInterval(-70 * day),
                expires: now.addingTimeInterval(-40 * day), group: TestCatalog.subscriptionGroup)
            let refundedRenewal = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, original: first.originalTransactionId,
                purchased: now.addingTimeInterval(-40 * day), signed: now.addingTimeInterval(-35 * day),
                expires: now.addingTimeInterval(-10 * day), revoked: now.addingTimeInterval(-35 * day),
                group: TestCatalog.subscriptionGroup)
            let current = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, original: first.originalTransactionId,
                purchased: now.addingTimeInterval(-10 * day), expires: now.addingTimeInterval(20 * day),
                group: TestCatalog.subscriptionGroup)
            let chain = [first, refundedRenewal, current]
            _ = try await server.restore(chain.map(server.entry), token: x.token)
            #expect(try await server.events(of: first.originalTransactionId).map(\.kind) == ["purchaseClaimed", "revoked"])

            _ = try await server.restore([server.entry(current)], userInitiated: true, token: y.token)

            let kinds = try await server.events(of: first.originalTransactionId).map(\.kind)
            #expect(kinds.filter { $0 == "revoked" }.count == 1, "\(kinds)")
            #expect(try await server.entitlementIds(token: y.token) == ["premium"])
        }
    }
}
