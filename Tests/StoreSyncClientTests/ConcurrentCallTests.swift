import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// Calls that overlap on one device: the actor lets them interleave at every request.
@Suite struct ConcurrentCallTests {
    @Test func recordingTheSameTransactionTwiceAtOnceUploadsItOnce() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let jws = TestPurchase.buy(TestCatalog.lifetime, on: server).jws
            let gate = device.transport.holdNextResponse(to: "/v1/transactions")
            let first = Task { try await device.client.record(signedTransaction: jws) }
            await gate.responseArrived.wait()
            // StoreKit's updates listener and the purchase flow both deliver it.
            #expect(try await device.client.record(signedTransaction: jws) == .queued)
            await gate.release.open()

            guard case .acknowledged(let verdict) = try await first.value else {
                Issue.record("the first call should have been acknowledged")
                return
            }
            #expect(verdict.verdict == .accepted)
            #expect(device.transport.requests(to: "/v1/transactions") == 1)
            #expect(await device.client.pendingUploads == 0)
        }
    }

    @Test func purchaseRecordedWhileARestoreIsInFlightIsKeptAndItsNewerSnapshotWins() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)

            let gate = device.transport.holdNextResponse(to: "/v1/restore")
            let restoring = Task { try await device.client.restore() }
            await gate.responseArrived.wait()
            let season = TestPurchase.buy(TestCatalog.seasonPass, on: server)
            guard case .acknowledged = try await device.client.record(signedTransaction: season.jws) else {
                Issue.record("the purchase should have been acknowledged")
                return
            }
            await gate.release.open()
            let restored = try await restoring.value

            #expect(restored.entitlements.map(\.entitlementId) == ["premium"], "the restore's answer predates the purchase")
            let status = await device.client.entitlements()
            #expect(status.entitlements.map(\.entitlementId) == ["premium", "season"], "the older snapshot did not replace the newer")
            #expect(status.version == restored.snapshot.version + 1)
            let ledger = await device.client.ledger(in: .account(session.accountId))
            #expect(ledger[season.record.transactionId]?.signedTransaction == season.jws)
        }
    }
}
