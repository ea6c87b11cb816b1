import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting

/// One Apple ID's user, driving its devices one operation at a time: buy, receive a
/// re-delivery from StoreKit, restore (background, user-initiated or dry run), switch app
/// account, refresh. Several workers run at once.
actor StressWorker {
    let appleId: Int
    nonisolated let testDevices: [TestDevice]
    private var signedIn: [Scenario.Account]
    private let accounts: [Scenario.Account]
    private let server: TestServer
    private let model: StressModel
    private let ownershipMoves: AsyncSerialGate
    private var generator: SeededGenerator

    static let products = [
        TestCatalog.lifetime, TestCatalog.monthly, TestCatalog.monthlyPro, TestCatalog.seasonPass, TestCatalog.coins,
    ]

    init(
        appleId: Int, devices: [(TestDevice, Scenario.Account)], accounts: [Scenario.Account], server: TestServer,
        model: StressModel, ownershipMoves: AsyncSerialGate, seed: UInt64
    ) {
        self.appleId = appleId
        testDevices = devices.map { $0.0 }
        signedIn = devices.map { $0.1 }
        self.accounts = accounts
        self.server = server
        self.model = model
        self.ownershipMoves = ownershipMoves
        generator = SeededGenerator(seed: seed)
    }

    func run(until deadline: ContinuousClock.Instant) async throws {
        while ContinuousClock.now < deadline {
            let index = Int.random(in: 0..<testDevices.count, using: &generator)
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<30: try await buy(on: index)
            case 30..<50: try await redeliver(on: index)
            case 50..<75: try await restore(on: index)
            case 75..<85: try await switchAccount(on: index)
            default:
                _ = try await testDevices[index].client.refresh()
                await model.count("refresh")
            }
        }
    }

    /// A new purchase, carrying the account's appAccountToken half of the time.
    private func buy(on index: Int) async throws {
        let account = signedIn[index]
        let product = Self.products.randomElement(using: &generator)!
        let token = Bool.random(using: &generator) ? account.appAccountToken : nil
        server.clock.advance(by: 60)
        let purchase = TestPurchase.buy(product, on: server, token: token)
        await model.register(purchase, appleId: appleId)
        let outcome = try await testDevices[index].client.record(signedTransaction: purchase.jws)
        await model.count("buy")
        guard case .acknowledged(let verdict) = outcome, verdict.verdict == .accepted else {
            await model.contradiction("a new purchase was answered \(outcome)")
            return
        }
        await model.count("verdict.accepted")
        await model.own(purchase.record.originalTransactionId, by: account.id)
    }

    /// StoreKit delivers one of the Apple ID's transactions again, to whatever account the
    /// device is signed in to: known to its owner, refused (kept on the device) elsewhere.
    private func redeliver(on index: Int) async throws {
        guard let version = await model.randomVersion(appleId: appleId, pick: generator.next()) else { return }
        await model.count("redeliver")
        do {
            let outcome = try await testDevices[index].client.record(signedTransaction: version.jws)
            guard case .acknowledged(let verdict) = outcome else {
                await model.contradiction("a re-delivery was answered \(outcome)")
                return
            }
            await model.count("verdict.\(verdict.verdict.rawValue)")
        } catch StoreSyncClientError.ownedByOtherAccount {
            await model.count("verdict.ownedByOtherAccount")
        }
    }

    /// A restore; user-initiated ones may move purchases, so they run one at a time and the
    /// model takes their verdicts before the next may start.
    private func restore(on index: Int) async throws {
        let client = testDevices[index].client
        let account = signedIn[index]
        let userInitiated = Bool.random(using: &generator)
        let dryRun = userInitiated && Int.random(in: 0..<5, using: &generator) == 0
        guard userInitiated, !dryRun else {
            let outcome = try await client.restore(userInitiated: userInitiated, dryRun: dryRun)
            await model.count(dryRun ? "restore.dryRun" : "restore.background")
            for verdict in outcome.verdicts where !dryRun { await model.count("verdict.\(verdict.verdict.rawValue)") }
            return
        }
        let model = model
        try await ownershipMoves.run {
            let outcome = try await client.restore(userInitiated: true)
            await model.count("restore.userInitiated")
            // A restore is one transaction and its verdicts describe where it ended: a cached
            // copy sent without its JWS is `known` because another entry of the same purchase
            // was `transferred`, whichever comes first in the list. So the moves come first.
            for verdict in outcome.verdicts where verdict.verdict == .transferred {
                await model.own(verdict.originalTransactionId, by: account.id)
            }
            for verdict in outcome.verdicts {
                await model.count("verdict.\(verdict.verdict.rawValue)")
                let owner = await model.owner(of: verdict.originalTransactionId)
                switch verdict.verdict {
                case .transferred:
                    break
                case .accepted, .known:
                    if owner != account.id { await model.contradiction("\(verdict) for a purchase the model gives to \(String(describing: owner))") }
                case .ownedByOtherAccount:
                    if owner == account.id { await model.contradiction("\(verdict) for a purchase the model gives to this account") }
                case .rejected, .unverifiedClaim:
                    break
                }
            }
        }
    }

    private func switchAccount(on index: Int) async throws {
        let target = accounts.randomElement(using: &generator)!
        let client = testDevices[index].client
        try await client.signOut()
        try await client.signIn(email: target.email, password: TestAccount.password)
        signedIn[index] = target
        await model.count("switchAccount")
    }
}
