import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting

/// The story: device A buys through the StoreKit glue (`PurchaseCoordinator`, with a simulated
/// StoreKit), once offline; device B restores from nothing; Apple refunds, B sees it; a StoreKit 1
/// build restores from its app receipt; then the user deletes the account from A, as App Store
/// guideline 5.1.1(v) requires an app to offer.
struct DemoScenario {
    let server: DemoServer
    /// Apple's verifyReceipt, stood in for: what the server asks about a StoreKit 1 app receipt.
    let receipts: AppStoreReceiptStandIn
    let workspace: URL

    private let email = "ada-\(UUID().uuidString.prefix(6).lowercased())@example.com"
    let password = "correct horse battery staple"

    init(server: DemoServer, receipts: AppStoreReceiptStandIn, workspace: URL) {
        self.server = server
        self.receipts = receipts
        self.workspace = workspace
    }

    func run() async throws {
        Transcript.title("StoreSync demo: one account, two devices, and a StoreKit 1 app")
        Transcript.step("storesync serve", "ready at \(server.baseURL.absoluteString) (embedded PostgreSQL, Sandbox)")
        Transcript.step("trusted root", "a test App Store PKI generated for this run")

        let (phone, phoneNetwork) = makeDevice("device-a")
        let appStore = SimulatedStoreKit(signer: server.signer)
        let purchases = PurchaseCoordinator(client: phone, source: appStore)
        Transcript.section("Device A (iPhone), StoreKit 2 through PurchaseCoordinator (StoreKit simulated)")
        await purchases.start()
        Transcript.step("start()", "listening to Transaction.updates; the outbox flushes itself")
        let session = try await purchases.signUp(email: email, password: password, deviceName: "iPhone")
        Transcript.step("signUp(\(email))", "account \(Transcript.short(session.accountId)), device \(Transcript.short(session.deviceId))")
        let products = try await purchases.products()
        Transcript.step("products()", "\(products.map(Transcript.product).joined(separator: ", ")) (ids from GET /v1/catalog)")
        let lifetime = try await buy(TestCatalog.lifetime, through: purchases)
        _ = try await buy(TestCatalog.monthly, through: purchases)

        phoneNetwork.isOnline = false
        Transcript.note("(airplane mode)")
        _ = try await buy(TestCatalog.seasonPass, through: purchases)
        Transcript.step("pendingUploads", "\(await phone.pendingUploads): finished all the same, the outbox keeps it")
        phoneNetwork.isOnline = true
        Transcript.note("(back online)")
        _ = await phone.flush()
        Transcript.step("flush()", "\(await phone.pendingUploads) pending: the season pass reached the server")
        Transcript.step("entitlements()", Transcript.entitlements(await phone.entitlements().entitlements))

        let (tablet, tabletNetwork) = makeDevice("device-b")
        Transcript.section("Device B (iPad), fresh install")
        Transcript.step("cached purchases", "\(try cachedKeys("device-b")) keys in its cache")
        let tabletSession = try await tablet.signIn(email: email, password: password, deviceName: "iPad")
        Transcript.step("signIn(\(email))", "same account \(Transcript.short(tabletSession.accountId)), device \(Transcript.short(tabletSession.deviceId))")
        let restored = try await tablet.restore()
        Transcript.step("restore()", "\(restored.snapshot.transactions.count) transactions, snapshot v\(restored.snapshot.version) (signature verified)")
        Transcript.step("entitlements()", Transcript.entitlements(restored.entitlements))
        tabletNetwork.isOnline = false
        Transcript.note("(airplane mode)")
        let offline = await tablet.entitlements()
        Transcript.step("isEntitled(to: \"premium\")", "\(await tablet.isEntitled(to: "premium")), offline, from the signed snapshot valid until \(Transcript.date(offline.validUntil))")

        Transcript.section("App Store → server: the lifetime purchase is refunded")
        let refunded = lifetime.refunded(at: Date(), signedBy: server.signer).record
        let notification = server.signer.signNotification(
            type: .refund, signedDate: refunded.signedDate, environment: .sandbox, transaction: refunded)
        Transcript.step("POST /v1/notifications/appstore (REFUND)", "HTTP \(try await server.postNotification(notification))")

        Transcript.section("Device B (iPad)")
        Transcript.step("isEntitled(to: \"premium\")", "\(await tablet.isEntitled(to: "premium")), still offline: it has not heard yet")
        tabletNetwork.isOnline = true
        Transcript.note("(back online)")
        Transcript.step("refresh()", describe(try await tablet.refresh()))
        Transcript.step("entitlements()", Transcript.entitlements(await tablet.entitlements().entitlements))
        Transcript.step("isEntitled(to: \"premium\")", "\(await tablet.isEntitled(to: "premium")), now from the monthly subscription")

        Transcript.section("Device A (iPhone)")
        Transcript.step("refresh()", describe(try await phone.refresh()))
        Transcript.step("entitlements()", Transcript.entitlements(await phone.entitlements().entitlements))
        await purchases.stop()

        try await restoreFromReceipt()
        try await deleteAccount(on: phone, other: tablet)
        print("\nDone. Stopping the server (SIGTERM) and removing \(workspace.path).")
    }

    /// The user deletes the account on the phone: every device is signed out, the phone's cache
    /// of the account is wiped, and the email may sign up again.
    private func deleteAccount(on phone: StoreSyncClient, other tablet: StoreSyncClient) async throws {
        Transcript.section("Device A (iPhone): Settings → Delete Account")
        let devices = try await phone.sessions().map { ($0.deviceName ?? "unnamed") + ($0.current ? " (this one)" : "") }
        Transcript.step("sessions()", "\(devices.count) devices: \(devices.joined(separator: ", "))")
        try await phone.deleteAccount(password: password)
        Transcript.step("deleteAccount(password:)", "deleted: email, password and sessions erased, purchases released")
        Transcript.step("session", "\(await phone.session.map { "\($0)" } ?? "signed out"); \(try cachedKeys("device-a")) keys left in its cache")
        Transcript.section("Device B (iPad)")
        do {
            _ = try await tablet.refresh()
            Transcript.step("refresh()", "still signed in (unexpected)")
        } catch {
            Transcript.step("refresh()", "\(error)")
        }
        Transcript.section("Device A (iPhone)")
        let again = try await phone.signUp(email: email, password: password, deviceName: "iPhone")
        Transcript.step("signUp(\(email))", "the email is free again: new account \(Transcript.short(again.accountId))")
    }

    func makeDevice(_ name: String) -> (StoreSyncClient, DemoNetwork) {
        let network = DemoNetwork()
        let client = StoreSyncClient(
            configuration: .init(baseURL: server.baseURL, serverPublicKey: server.publicKey),
            store: FileStore(directory: workspace.appendingPathComponent(name)), transport: network)
        return (client, network)
    }

    private func cachedKeys(_ name: String) throws -> Int {
        try FileStore(directory: workspace.appendingPathComponent(name)).keys(withPrefix: "").count
    }

    /// Buys as an app's Buy button does: the purchase sheet (simulated) is paid with the
    /// account's `appAccountToken`, the transaction recorded, then finished.
    ///
    /// - Returns: The purchase as the App Store signed it.
    private func buy(_ productId: String, through purchases: PurchaseCoordinator<SimulatedStoreKit>) async throws -> TestPurchase {
        let outcome = await purchases.purchase(productId)
        let appStore = purchases.source
        guard case .purchased(let recorded, _) = outcome, let id = appStore.finishedTransactionIds.last,
            let bought = appStore.purchase(withId: id)
        else { throw DemoFailure("the purchase of \(productId) ended \(outcome)") }
        let token = bought.record.appAccountToken.map(Transcript.short) ?? "none"
        let renews = bought.record.expiresDate.map { ", renews \(Transcript.date($0))" } ?? ""
        Transcript.step(
            "purchase(\(Transcript.product(productId)))",
            "paid with appAccountToken \(token)\(renews); \(describe(recorded)); finished")
        return bought
    }

    func describe(_ outcome: RecordOutcome) -> String {
        switch outcome {
        case .acknowledged(let verdict): "acknowledged by the server: \(verdict.verdict.rawValue)"
        case .queued: "queued in the outbox (offline)"
        case .storedUntilSignIn: "kept until sign-in"
        }
    }

    private func describe(_ outcome: RefreshOutcome) -> String {
        switch outcome {
        case .updated(let snapshot): "updated: snapshot v\(snapshot.version) (signature verified)"
        case .notModified: "not modified (304)"
        }
    }
}
