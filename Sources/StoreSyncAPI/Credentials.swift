public import Foundation

/// The body of `POST /v1/accounts` and `POST /v1/sessions`.
///
/// Its descriptions never show the password, so logging a request cannot leak it.
public struct Credentials: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The account's email address.
    public var email: String
    /// The password, in clear over TLS; the server keeps only its bcrypt hash.
    public var password: String
    /// A name for the device, shown to the user when listing sessions.
    public var deviceName: String?
    /// The device's id from an earlier session, so signing in again reuses the device.
    public var deviceId: UUID?

    /// Creates credentials.
    ///
    /// - Parameters:
    ///   - email: The account's email address.
    ///   - password: The password.
    ///   - deviceName: A name for the device.
    ///   - deviceId: The device's id from an earlier session.
    public init(email: String, password: String, deviceName: String? = nil, deviceId: UUID? = nil) {
        self.email = email
        self.password = password
        self.deviceName = deviceName
        self.deviceId = deviceId
    }

    /// The credentials with the password redacted.
    public var description: String {
        "Credentials(email: \(email), password: <redacted>, deviceName: \(deviceName ?? "nil"), "
            + "deviceId: \(deviceId?.uuidString ?? "nil"))"
    }

    /// The credentials with the password redacted.
    public var debugDescription: String { description }
}
