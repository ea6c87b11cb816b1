import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// App Review (and TestFlight) buys in the sandbox against the production app, so the reviewer's
/// purchase reaches a Production server signed for Sandbox. It must unlock, marked as a Sandbox
/// grant, unless the operator chose `STORESYNC_SANDBOX_IN_PRODUCTION=refuse`.
@Suite("Shipping through App Review") struct AppReviewSandboxTests {
    @Test("17. App Review buys in the sandbox against a Production server and the purchase unlocks")
    func theReviewersSandboxPurchaseUnlocks() async throws {
        try await Scenario.run(configure: { $0.environment = .production }) { scenario in
            try await scenario.accounts("Reviewer")
            let bought = TestPurchase.buy(TestCatalog.lifetime, on: scenario.server, token: scenario.account("Reviewer").appAccountToken)
            #expect(bought.record.environment == .sandbox)
            let purchase = bought.record.originalTransactionId
            let premium = ExpectedEntitlement("premium", product: TestCatalog.lifetime, expiry: .lifetime, environment: .sandbox)
            let expected = Expectation(
                devices: ["iPad": [premium], "iPhone": [premium]], accounts: ["Reviewer": [premium]],
                owners: [purchase: "Reviewer"], events: [purchase: ["purchaseClaimed"]],
                holdings: ["Reviewer": [purchase]], purchases: 1)

            let ipad = try await scenario.device("iPad", signedInTo: "Reviewer")
            let recorded = try await ipad.client.record(signedTransaction: bought.jws)
            let iphone = try await scenario.device("iPhone", signedInTo: "Reviewer")
            let restored = try await iphone.client.restore(userInitiated: true)

            guard case .acknowledged(let verdict) = recorded else {
                Issue.record("the purchase was not acknowledged: \(recorded)")
                return
            }
            #expect(verdict.verdict == .accepted)
            #expect(restored.verdicts.map(\.verdict) == [.known])
            let backend = try await scenario.server.send(
                "GET", "/v1/admin/accounts/\(scenario.account("Reviewer").id)/entitlements", token: scenario.server.adminKey)
            #expect(try backend.decode(Snapshot.self).entitlements.map(\.environment) == [.sandbox], "the backend sees a Sandbox grant")
            try await scenario.check(expected)
        }
    }

    @Test("17b. The same purchase on a Production server set to refuse Sandbox unlocks nothing, and says why")
    func anOperatorMayRefuseSandboxPurchases() async throws {
        try await Scenario.run(configure: { settings in
            settings.environment = .production
            settings.sandboxInProduction = .refuse
        }) { scenario in
            try await scenario.accounts("Reviewer")
            let bought = TestPurchase.buy(TestCatalog.lifetime, on: scenario.server)
            let expected = Expectation(devices: ["iPad": []], accounts: ["Reviewer": []], holdings: ["Reviewer": []], purchases: 0)

            let ipad = try await scenario.device("iPad", signedInTo: "Reviewer")
            do {
                let recorded = try await ipad.client.record(signedTransaction: bought.jws)
                Issue.record("the purchase was taken: \(recorded)")
            } catch StoreSyncClientError.invalidInput(let problem) {
                #expect(problem.problemType == .environmentRefused, "the operator's policy, not a forgery")
                #expect(problem.detail?.contains("STORESYNC_SANDBOX_IN_PRODUCTION=refuse") == true)
            }
            #expect(await ipad.client.rejectedUploads.map(\.transactionId) == [bought.record.transactionId])
            try await scenario.check(expected)
        }
    }
}
