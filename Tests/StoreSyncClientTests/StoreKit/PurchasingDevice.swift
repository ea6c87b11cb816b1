import Foundation
import StoreSyncAPI
import StoreSyncClient
import StoreSyncTesting

/// A device with StoreKit simulated: its client, Apple's side of it, and the coordinator
/// that joins them, as an app would set them up at launch.
struct PurchasingDevice {
    let device: TestDevice
    let appStore: SimulatedStoreKit
    let purchases: PurchaseCoordinator<SimulatedStoreKit>

    /// A new installation; Apple's side is shared when given (the same Apple ID on it).
    init(server: TestServer, device: TestDevice? = nil, appStore: SimulatedStoreKit? = nil) {
        self.device = device ?? TestDevice(server: server)
        self.appStore = appStore ?? SimulatedStoreKit(server: server)
        purchases = PurchaseCoordinator(client: self.device.client, source: self.appStore)
    }

    /// A new installation, started, with a new account signed up through the coordinator.
    static func signedUp(on server: TestServer, device: TestDevice? = nil) async throws -> (PurchasingDevice, ClientSession) {
        let purchasing = PurchasingDevice(server: server, device: device)
        await purchasing.purchases.start()
        let session = try await purchasing.purchases.signUp(email: TestAccount.email(), password: TestAccount.password)
        return (purchasing, session)
    }

    var client: StoreSyncClient { device.client }
    var transport: ControlledTransport { device.transport }

    /// The app launched again: the same cache, network and Apple side, a new process.
    func relaunched(on server: TestServer) async -> PurchasingDevice {
        await purchases.stop()
        return PurchasingDevice(server: server, device: device.relaunched(on: server), appStore: appStore)
    }
}

extension PurchaseOutcome {
    /// The record outcome of a successful purchase, `nil` otherwise.
    var recorded: RecordOutcome? {
        guard case .purchased(let outcome, _) = self else { return nil }
        return outcome
    }

    /// The entitlements after a successful purchase, `nil` otherwise.
    var entitlements: EntitlementStatus? {
        guard case .purchased(_, let entitlements) = self else { return nil }
        return entitlements
    }

    var isPending: Bool {
        if case .pending = self { return true }
        return false
    }

    var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// The error of a failed purchase, `nil` otherwise.
    var failure: (any Error)? {
        guard case .failed(let error) = self else { return nil }
        return error
    }

    /// The error of a purchase rejected and finished, `nil` otherwise.
    var rejection: StoreSyncClientError? {
        guard case .rejected(let error) = self else { return nil }
        return error
    }
}

extension RecordOutcome {
    /// The verdict of an acknowledged record, `nil` otherwise.
    var verdict: VerdictKind? {
        guard case .acknowledged(let verdict) = self else { return nil }
        return verdict.verdict
    }
}
