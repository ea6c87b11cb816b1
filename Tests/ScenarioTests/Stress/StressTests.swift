import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// 8 devices × 20 accounts doing random purchases, re-deliveries, restores, account switches
/// and refreshes while Apple sends refunds, reversals and renewals, for a bounded time
/// (`STORESYNC_STRESS_SECONDS`, 15 by default; `STORESYNC_STRESS_SEED` replays a run's
/// choices — the interleaving of the workers still varies).
///
/// Devices belong to 4 Apple IDs (2 each): StoreKit re-delivers an Apple ID's purchases to its
/// devices whatever app account they are signed in to, so purchases do travel between
/// accounts (transfer policy `transfer`): background uploads are refused, user-initiated
/// restores move them. The final state must equal the replay of the accepted operations
/// through StoreSyncCore, per account: server answer, database owners and rows, devices.
@Suite("Stress") struct StressTests {
    static let appleIds = 4
    static let devicesPerAppleId = 2
    static let accountCount = 20

    @Test("Stress: 8 devices × 20 accounts, random purchases, restores, refunds and notifications")
    func finalStateEqualsTheReplayOfAcceptedOperations() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["STORESYNC_STRESS_SECONDS"].flatMap(Double.init) ?? 15
        let seed = environment["STORESYNC_STRESS_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        print("stress: seed \(seed), \(seconds) s (STORESYNC_STRESS_SEED=\(seed) replays its choices)")

        try await Scenario.run(configure: { $0.transferPolicy = .transfer; $0.databasePoolSize = 8 }) { scenario in
            let names = (1...Self.accountCount).map { "U\($0)" }
            for name in names { try await scenario.accounts(name) }
            let accounts = names.map { scenario.account($0) }
            let model = StressModel()
            let ownershipMoves = AsyncSerialGate()
            let deadline = ContinuousClock.now + .seconds(seconds)

            var workers: [StressWorker] = []
            for appleId in 0..<Self.appleIds {
                var devices: [(TestDevice, Scenario.Account)] = []
                for index in 0..<Self.devicesPerAppleId {
                    let account = accounts[(appleId * Self.devicesPerAppleId + index) % accounts.count]
                    devices.append((try await scenario.device("apple\(appleId)-\(index)", signedInTo: account.name), account))
                }
                workers.append(StressWorker(
                    appleId: appleId, devices: devices, accounts: accounts, server: scenario.server, model: model,
                    ownershipMoves: ownershipMoves, seed: seed &+ UInt64(appleId)))
            }
            let notifier = StressNotifier(server: scenario.server, model: model, seed: seed &+ 1000)

            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in workers { group.addTask { try await worker.run(until: deadline) } }
                group.addTask { try await notifier.run(until: deadline) }
                try await group.waitForAll()
            }

            let counts = await model.counts
            let contradictions = await model.contradictions
            let purchases = await model.chains.count
            print("stress: operations \(counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
            let transactions = try await scenario.server.count("transactions")
            print("stress: purchases \(purchases), transactions \(transactions), contradictions \(contradictions.count)")
            #expect(contradictions.isEmpty, "\(contradictions.prefix(10))")
            try await Self.checkFinalState(scenario: scenario, accounts: accounts, workers: workers, model: model)
        }
    }

    /// Server, database and devices against the replay.
    static func checkFinalState(scenario: Scenario, accounts: [Scenario.Account], workers: [StressWorker], model: StressModel)
        async throws
    {
        let server = scenario.server
        let catalog = Catalog(TestCatalog.products)
        let versions = try await server.versions()
        var served: [UUID: Snapshot] = [:]
        for account in accounts {
            let snapshot = try await server.send("GET", "/v1/entitlements", token: account.session.token).decode(Snapshot.self)
            served[account.id] = snapshot
            let ledger = await model.ledger(of: account.id)
            let replayed = entitlements(ledger: ledger, catalog: catalog, at: snapshot.generatedAt)
            #expect(Set(snapshot.entitlements) == Set(replayed), "account \(account.name): server \(snapshot.entitlements.map(\.summary)), replay \(replayed.map(\.summary))")
            #expect(snapshot.version == versions[account.id], "account \(account.name): snapshot and database versions differ")
            let held = try await scenario.purchasesHeld(by: account.id)
            let owned = await model.purchases(of: account.id)
            #expect(held == owned, "account \(account.name) holds rows of other purchases than it owns")
        }
        for (id, owner) in await model.owners {
            #expect(try await server.owner(of: id) == owner, "purchase \(id): database owner differs from the replay")
        }
        let purchases = await model.chains.count
        #expect(try await server.count("purchase_owners") == purchases)
        #expect(try await server.count("unclaimed_versions") == 0)

        let now = server.clock.now()
        for worker in workers {
            for device in worker.testDevices {
                _ = try await device.client.refresh()
                let shown = await device.client.entitlements(at: now)
                let accountId = try #require(await device.client.session?.accountId)
                let expected = served[accountId]?.entitlements.filter { $0.expiresAt.map { $0 > now } ?? true } ?? []
                #expect(shown.freshness == .fresh)
                #expect(Set(shown.entitlements) == Set(expected), "a device of \(scenario.name(of: accountId)) shows other entitlements than the server")
            }
        }
    }
}
