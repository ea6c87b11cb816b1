import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting

/// The story: device A buys, device B restores from nothing, Apple refunds, B sees it; then the
/// user deletes the account from A, as App Store guideline 5.1.1(v) requires an app to offer.
struct DemoScenario {
    let server: DemoServer
    let workspace: URL

    private let email = "ada-\(UUID().uuidString.prefix(6).lowercased())@example.com"
    private let password = "correct horse battery staple"

    init(server: DemoServer, workspace: URL) {
        self.server = server
        self.workspace = workspace
    }

    func run() async throws {
        Transcript.title("StoreSync demo: one account, two devices")
        Transcript.step("storesync serve", "ready at \(server.baseURL.absoluteString) (embedded PostgreSQL, Sandbox)")
        Transcript.step("trusted root", "a test App Store PKI generated for this run")

        let (phone, phoneNetwork) = makeDevice("device-a")
        Transcript.section("Device A (iPhone)")
        let session = try await phone.signUp(email: email, password: password, deviceName: "iPhone")
        Transcript.step("signUp(\(email))", "account \(Transcript.short(session.accountId)), device \(Transcript.short(session.deviceId))")
        let lifetime = purchase(TestCatalog.lifetime, token: session.appAccountToken)
        Transcript.step("StoreKit: buy lifetime", "transaction \(lifetime.transactionId)")
        Transcript.step("record(signedTransaction:)", describe(try await phone.record(signedTransaction: sign(lifetime))))
        let monthly = purchase(TestCatalog.monthly, token: session.appAccountToken)
        Transcript.step("StoreKit: buy monthly", "transaction \(monthly.transactionId), renews \(Transcript.date(monthly.expiresDate))")
        Transcript.step("record(signedTransaction:)", describe(try await phone.record(signedTransaction: sign(monthly))))

        phoneNetwork.isOnline = false
        Transcript.note("(airplane mode)")
        let season = purchase(TestCatalog.seasonPass, token: session.appAccountToken)
        Transcript.step("StoreKit: buy season pass", "transaction \(season.transactionId)")
        Transcript.step("record(signedTransaction:)", describe(try await phone.record(signedTransaction: sign(season))))
        Transcript.step("pendingUploads", "\(await phone.pendingUploads); the app may finish the transaction now")
        phoneNetwork.isOnline = true
        Transcript.note("(back online)")
        let flushed = await phone.flush()
        Transcript.step("flush()", "\(flushed.uploaded) uploaded, \(flushed.pending) pending")
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
        let refundDate = Date()
        var refunded = lifetime
        refunded.revocationDate = refundDate
        refunded.revocationReason = .other
        refunded.signedDate = refundDate
        let notification = server.signer.signNotification(
            type: .refund, signedDate: refundDate, environment: .sandbox, transaction: refunded)
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

    private func makeDevice(_ name: String) -> (StoreSyncClient, DemoNetwork) {
        let network = DemoNetwork()
        let client = StoreSyncClient(
            configuration: .init(baseURL: server.baseURL, serverPublicKey: server.publicKey),
            store: FileStore(directory: workspace.appendingPathComponent(name)), transport: network)
        return (client, network)
    }

    private func cachedKeys(_ name: String) throws -> Int {
        try FileStore(directory: workspace.appendingPathComponent(name)).keys(withPrefix: "").count
    }

    /// What the App Store would sign for a purchase made now.
    private func purchase(_ productId: String, token: UUID) -> TransactionRecord {
        let id = String(UInt64.random(in: 2_000_000_000_000...2_999_999_999_999))
        let now = Date()
        let product = TestCatalog.products.first { $0.productId == productId }
        let type = product?.type ?? .nonConsumable
        return TransactionRecord(
            transactionId: id, originalTransactionId: id, productId: productId, productType: type,
            purchaseDate: now, originalPurchaseDate: now,
            expiresDate: type == .autoRenewable ? now.addingTimeInterval(30 * 86_400) : nil,
            environment: .sandbox, appAccountToken: token, signedDate: now,
            subscriptionGroupId: product?.subscriptionGroupId, evidence: .jws)
    }

    private func sign(_ record: TransactionRecord) -> String { server.signer.signTransaction(record) }

    private func describe(_ outcome: RecordOutcome) -> String {
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
