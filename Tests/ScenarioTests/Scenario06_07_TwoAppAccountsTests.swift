import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Same Apple ID, two app accounts: X buys on device A, Y restores on device B. StoreKit
/// delivers the transaction to B as well, so B records it (a background upload) before Y taps
/// Restore Purchases.
@Suite("Same Apple ID, two app accounts") struct TwoAppAccountsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let policy: TransferPolicy
        let activeSubscription: Bool
        /// Whether B's background upload is accepted (only `share` gives Y its own copy).
        let uploadAccepted: Bool
        let restoreVerdict: VerdictKind
        let owner: String
        let xEntitled: Bool
        let yEntitled: Bool
        let events: [String]

        var testDescription: String { policy.rawValue + (activeSubscription ? " (active subscription)" : "") }
    }

    static let policies: [Case] = [
        Case(
            policy: .transfer, activeSubscription: false, uploadAccepted: false, restoreVerdict: .transferred, owner: "Y",
            xEntitled: false, yEntitled: true, events: ["purchaseClaimed", "ownershipTransferred", "ownershipTransferred"]),
        Case(
            policy: .transferIfNoActiveSubscription, activeSubscription: false, uploadAccepted: false,
            restoreVerdict: .transferred, owner: "Y", xEntitled: false, yEntitled: true,
            events: ["purchaseClaimed", "ownershipTransferred", "ownershipTransferred"]),
        Case(
            policy: .transferIfNoActiveSubscription, activeSubscription: true, uploadAccepted: false,
            restoreVerdict: .ownedByOtherAccount, owner: "X", xEntitled: true, yEntitled: false, events: ["purchaseClaimed"]),
        Case(
            policy: .keep, activeSubscription: false, uploadAccepted: false, restoreVerdict: .ownedByOtherAccount, owner: "X",
            xEntitled: true, yEntitled: false, events: ["purchaseClaimed"]),
        Case(
            policy: .share, activeSubscription: false, uploadAccepted: true, restoreVerdict: .known, owner: "X",
            xEntitled: true, yEntitled: true, events: ["purchaseClaimed", "purchaseShared"]),
    ]

    @Test("6. X buys, Y restores — the transfer policy decides owner, entitlements of both and events", arguments: policies)
    func secondAccountRestores(_ policyCase: Case) async throws {
        try await Scenario.run(configure: { $0.transferPolicy = policyCase.policy }) { scenario in
            try await scenario.accounts("X", "Y")
            let bought = TestPurchase.buy(policyCase.activeSubscription ? TestCatalog.monthly : TestCatalog.lifetime, on: scenario.server)
            let purchase = bought.record.originalTransactionId
            let premium: [ExpectedEntitlement] = ["premium"]
            let expected = Expectation(
                devices: ["A": policyCase.xEntitled ? premium : [], "B": policyCase.yEntitled ? premium : []],
                accounts: ["X": policyCase.xEntitled ? premium : [], "Y": policyCase.yEntitled ? premium : []],
                owners: [purchase: policyCase.owner], events: [purchase: policyCase.events],
                holdings: ["X": policyCase.xEntitled ? [purchase] : [], "Y": policyCase.yEntitled ? [purchase] : []],
                purchases: 1)

            let verdict = try await Self.exchange(bought, in: scenario, expectUploadAccepted: policyCase.uploadAccepted)

            #expect(verdict == policyCase.restoreVerdict)
            try await scenario.check(expected)
        }
    }

    @Test("7. The same, but the transaction carries X's appAccountToken → X keeps it under every policy",
        arguments: TransferPolicy.allCases)
    func appAccountTokenWins(_ policy: TransferPolicy) async throws {
        try await Scenario.run(configure: { $0.transferPolicy = policy }) { scenario in
            try await scenario.accounts("X", "Y")
            let bought = TestPurchase.buy(TestCatalog.lifetime, on: scenario.server, token: scenario.account("X").appAccountToken)
            let purchase = bought.record.originalTransactionId
            let expected = Expectation(
                devices: ["A": ["premium"], "B": []], accounts: ["X": ["premium"], "Y": []], owners: [purchase: "X"],
                events: [purchase: ["purchaseClaimed"]], holdings: ["X": [purchase], "Y": []], purchases: 1)

            let verdict = try await Self.exchange(bought, in: scenario, expectUploadAccepted: false)

            #expect(verdict == .ownedByOtherAccount)
            try await scenario.check(expected)
        }
    }

    /// A (X) records the purchase; B (Y) receives it from StoreKit and records it, then Y
    /// restores; A refreshes afterwards. Returns the restore's verdict on the purchase.
    static func exchange(_ bought: TestPurchase, in scenario: Scenario, expectUploadAccepted: Bool) async throws
        -> VerdictKind?
    {
        let a = try await scenario.device("A", signedInTo: "X")
        let b = try await scenario.device("B", signedInTo: "Y")
        _ = try await a.client.record(signedTransaction: bought.jws)
        do {
            let outcome = try await b.client.record(signedTransaction: bought.jws)
            #expect(expectUploadAccepted, "B's background upload was acknowledged: \(outcome)")
        } catch StoreSyncClientError.ownedByOtherAccount {
            #expect(!expectUploadAccepted, "B's background upload was refused")
        }
        let restored = try await b.client.restore(userInitiated: true)
        _ = try await a.client.refresh()
        return restored.verdicts.first { $0.originalTransactionId == bought.record.originalTransactionId }?.verdict
    }
}
