public import Foundation

/// The signed-in account on this device. The bearer token stays inside the client and its
/// session store: it is not part of this value, so logging a session cannot leak it.
public struct ClientSession: Sendable, Hashable, CustomStringConvertible {
    /// The account.
    public var accountId: UUID
    /// This device's id at the server.
    public var deviceId: UUID
    /// Pass it to StoreKit as `appAccountToken` when purchasing, so the purchase belongs to
    /// this account wherever it is restored.
    public var appAccountToken: UUID
    /// The email the account signed in with; `nil` for a session the app's backend minted
    /// (``StoreSyncClient/adoptSession(_:)``).
    public var email: String?

    /// Creates a session value.
    ///
    /// - Parameters:
    ///   - accountId: The account.
    ///   - deviceId: The device.
    ///   - appAccountToken: The StoreKit `appAccountToken`.
    ///   - email: The email; `nil` for a session the app's backend minted.
    public init(accountId: UUID, deviceId: UUID, appAccountToken: UUID, email: String?) {
        self.accountId = accountId
        self.deviceId = deviceId
        self.appAccountToken = appAccountToken
        self.email = email
    }

    /// The account, device and email; never a token.
    public var description: String {
        "ClientSession(account: \(accountId.uuidString.lowercased()),  device: \(deviceId.uuidString.lowercased()), email: \(email ?? "none"))"
    }
}
