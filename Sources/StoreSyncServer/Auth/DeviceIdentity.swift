public import Foundation

/// A signed-in device: the account it acts for and its own id (one session per device).
public struct DeviceIdentity: Sendable, Hashable {
    public let accountId: UUID
    public let deviceId: UUID

    /// Creates a device identity.
    ///
    /// - Parameters:
    ///   - accountId: The account the device is signed in to.
    ///   - deviceId: The device's session id.
    public init(accountId: UUID, deviceId: UUID) {
        self.accountId = accountId
        self.deviceId = deviceId
    }
}
