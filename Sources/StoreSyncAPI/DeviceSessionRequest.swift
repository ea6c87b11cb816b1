/// The body of `POST /v1/admin/users/{externalUserId}/sessions`: the device the app backend
/// mints a session for.
public struct DeviceSessionRequest: Sendable, Hashable, Codable {
    /// A name for the device, shown in the account's device list.
    public var deviceName: String?

    /// Creates the request.
    ///
    /// - Parameter deviceName: A name for the device.
    public init(deviceName: String? = nil) {
        self.deviceName = deviceName
    }
}
