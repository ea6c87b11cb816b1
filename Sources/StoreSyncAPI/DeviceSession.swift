public import Foundation
import StoreSyncCore

/// One signed-in device of an account, as `GET /v1/sessions` lists it; never its token.
public struct DeviceSession: Sendable, Hashable, Codable {
    /// The device's id; `DELETE /v1/sessions/{deviceId}` signs it out.
    public var deviceId: UUID
    /// The name the device gave at sign-in.
    public var deviceName: String?
    /// When the device first signed in.
    public var createdAt: Date
    /// When the session was last used, to the minute.
    public var lastUsedAt: Date
    /// Whether this is the device that asked.
    public var current: Bool

    /// Creates a device session.
    ///
    /// - Parameters:
    ///   - deviceId: The device.
    ///   - deviceName: Its name.
    ///   - createdAt: When it signed in first.
    ///   - lastUsedAt: When it was last used.
    ///   - current: Whether it is the asking device.
    public init(deviceId: UUID, deviceName: String?, createdAt: Date, lastUsedAt: Date, current: Bool) {
        self.deviceId = deviceId
        self.deviceName = deviceName
        self.createdAt = createdAt.roundedToMilliseconds
        self.lastUsedAt = lastUsedAt.roundedToMilliseconds
        self.current = current
    }
}
