import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The outbox flushes itself after `start(connectivity:)`: at launch, when the network comes
/// back, on its backoff schedule — and never twice at once.
@Suite struct AutomaticFlushTests {
    /// A started device with a new account whose purchase of `products` failed to upload:
    /// queued, the device still offline.
    private func offlineDeviceWithQueuedPurchases(
        on server: TestServer, sleeper: ManualSleeper, connectivity: SimulatedConnectivity? = nil,
        products: [String] = [TestCatalog.lifetime]
    ) async throws -> TestDevice {
        let phone = TestDevice(server: server, sleep: sleeper.sleep)
        await phone.client.start(connectivity: connectivity)
        try await phone.client.signUp(email: TestAccount.email(), password: TestAccount.password)
        phone.transport.isOffline = true
        for product in products {
            #expect(try await phone.client.record(signedTransaction: TestPurchase.buy(product, on: server).jws) == .queued)
        }
        return phone
    }

    @Test func startUploadsWhatAnEarlierRunLeftQueued() async throws {
        try await withLiveServer { server in
            let phone = TestDevice(server: server)
            try await phone.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            phone.transport.isOffline = true
            #expect(try await phone.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws) == .queued)

            phone.transport.isOffline = false
            let relaunched = phone.relaunched(on: server)
            let launched = await relaunched.client.start(connectivity: nil)
            #expect(launched == FlushOutcome(uploaded: 1, rejected: 0, pending: 0), "before its backoff ran out")
            #expect(await relaunched.client.isEntitled(to: "premium"))
            await relaunched.client.stop()
        }
    }

    @Test func networkComingBackFlushesTheOutboxAtOnce() async throws {
        try await withLiveServer { server in
            let sleeper = ManualSleeper()  // never woken: only the network's return may upload
            let connectivity = SimulatedConnectivity()
            let phone = try await offlineDeviceWithQueuedPurchases(on: server, sleeper: sleeper, connectivity: connectivity)
            #expect(await sleeper.nextSleep() == 2, "the retry timer waits for the first backoff")

            phone.transport.isOffline = false
            let gate = phone.transport.holdNextResponse(to: "/v1/transactions")
            connectivity.networkCameBack()
            await gate.responseArrived.wait()
            await gate.release.open()
            await phone.client.flush()
            #expect(phone.transport.requests(to: "/v1/transactions") == 1)
            #expect(await phone.client.pendingUploads == 0)
            #expect(await phone.client.isEntitled(to: "premium"))
            await phone.client.stop()
        }
    }

    @Test func retryTimerBacksOffUntilTheServerIsReachable() async throws {
        try await withLiveServer { server in
            let sleeper = ManualSleeper()
            let phone = try await offlineDeviceWithQueuedPurchases(on: server, sleeper: sleeper)

            #expect(await sleeper.nextSleep() == 2)
            server.clock.advance(by: 2)
            await sleeper.wake()
            #expect(await sleeper.nextSleep() == 4, "still offline: the next wait doubles")
            #expect(await phone.client.pendingUploads == 1)

            phone.transport.isOffline = false
            let gate = phone.transport.holdNextResponse(to: "/v1/transactions")
            server.clock.advance(by: 4)
            await sleeper.wake()
            await gate.responseArrived.wait()
            await gate.release.open()
            await phone.client.flush()
            #expect(await phone.client.pendingUploads == 0)
            #expect(await phone.client.isEntitled(to: "premium"))
            #expect(phone.transport.requests(to: "/v1/transactions") == 1)
            await phone.client.stop()
        }
    }

    @Test func concurrentTriggersShareOneFlushAndUploadEachPurchaseOnce() async throws {
        try await withLiveServer { server in
            let connectivity = SimulatedConnectivity()
            let phone = try await offlineDeviceWithQueuedPurchases(
                on: server, sleeper: ManualSleeper(), connectivity: connectivity,
                products: [TestCatalog.lifetime, TestCatalog.seasonPass])
            phone.transport.isOffline = false

            let gate = phone.transport.holdNextResponse(to: "/v1/transactions")
            let first = Task { await phone.client.flush() }
            await gate.responseArrived.wait()
            let second = Task { await phone.client.flush() }
            connectivity.networkCameBack()
            // Wait until a trigger has joined the running flush (bounded: a failure, not a hang).
            var polls = 0
            while await phone.client.flushRequestedDuringRun == nil, polls < 100_000 {
                polls += 1
                await Task.yield()
            }
            #expect(await phone.client.flushRequestedDuringRun != nil, "a second trigger joined the running flush")
            #expect(phone.transport.requests(to: "/v1/transactions") == 1, "nothing uploads beside the running flush")

            await gate.release.open()
            let outcomes = [await first.value, await second.value]
            #expect(outcomes[0] == FlushOutcome(uploaded: 2, rejected: 0, pending: 0))
            await phone.client.flush()
            #expect(phone.transport.requests(to: "/v1/transactions") == 2, "each purchase uploaded once")
            #expect(await phone.client.pendingUploads == 0)
            await phone.client.stop()
        }
    }

    @Test func stopEndsTheRetryTimer() async throws {
        try await withLiveServer { server in
            let sleeper = ManualSleeper()
            let phone = try await offlineDeviceWithQueuedPurchases(on: server, sleeper: sleeper)
            #expect(await sleeper.nextSleep() == 2)

            await phone.client.stop()
            #expect(await phone.client.retryTimer == nil)
            _ = try await phone.client.record(signedTransaction: TestPurchase.buy(TestCatalog.seasonPass, on: server).jws)
            #expect(await phone.client.retryTimer == nil, "a failed upload sets no timer once stopped")
            phone.transport.isOffline = false
            server.clock.advance(by: 2)
            await sleeper.wake()
            #expect(phone.transport.requests(to: "/v1/transactions") == 0)
            #expect(await phone.client.pendingUploads == 2)
        }
    }
}
