public import Foundation

/// The answer to creating an account or signing in.
public struct SessionResponse: Sendable, Hashable, Codable {
    /// The account signed in to.
    public var accountId: UUID
    /// The UUID to pass to StoreKit as `appAccountToken`, tying new purchases to the account.
    public var appAccountToken: UUID
    /// The bearer token of this device's session.
    public var token: String
    /// This device's id; send it back in ``Credentials/deviceId`` to reuse the device.
    public var deviceId: UUID

    /// Creates a session response.
    ///
    /// - Parameters:
    ///   - accountId: The account.
    ///   - appAccountToken: The account's StoreKit `appAccountToken`.
    ///   - token: The device's bearer token.
    ///   - deviceId: The device.
    public init(accountId: UUID, appAccountToken: UUID, token: String, deviceId: UUID) {
        self.accountId = accountId
        self.appAccountToken = appAccountToken
        self.token = token
        self.deviceId = deviceId
    }
}
