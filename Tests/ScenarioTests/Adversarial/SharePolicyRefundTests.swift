import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Finding 7: under the `share` policy a new holder of a purchase gets the newest stored version
/// of every record of it, not only what it presents, so a refund reaches later sharers.
@Suite("Adversarial: sharing after a refund") struct SharePolicyRefundTests {
    @Test("A second account presenting the pre-refund JWS after the refund is not entitled")
    func aLaterSharerGetsTheRefund() async throws {
        try await withLiveServer(configure: { $0.transferPolicy = .share }) { server in
            let owner = try await server.signUp()
            let sharer = try await server.signUp()
            let purchase = TestPurchase.buy(TestCatalog.lifetime, on: server, purchased: server.clock.now().addingTimeInterval(-86_400))
            _ = try await server.upload(purchase.jws, token: owner.token)
            let refund = purchase.refunded(at: server.clock.now(), on: server)
            let notified = try await server.postNotification(.refund, transaction: refund.record)
            try #require(notified.status == 200)
            #expect(try await server.entitlementIds(token: owner.token) == [])

            let shared = try await server.restore([entry(purchase)], userInitiated: false, token: sharer.token)

            #expect(shared.verdicts.map(\.verdict) == [.accepted], "\(shared.verdicts)")
            #expect(shared.snapshot.entitlements.isEmpty, "the refund the owner holds reaches the sharer")
            #expect(shared.snapshot.transactions.map(\.isRevoked) == [true])
            #expect(try await server.entitlementIds(token: sharer.token) == [])
            #expect(try await server.owner(of: purchase.record.originalTransactionId) == owner.accountId)
        }
    }

    @Test("A sharer gets the purchase's renewals it never presented")
    func aSharerGetsEveryRecordOfThePurchase() async throws {
        try await withLiveServer(configure: { $0.transferPolicy = .share }) { server in
            let owner = try await server.signUp()
            let sharer = try await server.signUp()
            let now = server.clock.now()
            let first = TestPurchase.buy(
                TestCatalog.monthly, on: server, purchased: now.addingTimeInterval(-40 * 86_400),
                expires: now.addingTimeInterval(-10 * 86_400))
            let renewal = TestPurchase.buy(
                TestCatalog.monthly, on: server, original: first.record.originalTransactionId,
                purchased: now.addingTimeInterval(-10 * 86_400), expires: now.addingTimeInterval(20 * 86_400))
            _ = try await server.upload(first.jws, token: owner.token)
            _ = try await server.upload(renewal.jws, token: owner.token)

            let shared = try await server.restore([entry(first)], userInitiated: false, token: sharer.token)

            #expect(Set(shared.snapshot.transactions.map(\.transactionId)) == [first.record.transactionId, renewal.record.transactionId])
            #expect(shared.snapshot.entitlements.map(\.entitlementId) == ["premium"])
        }
    }
}
