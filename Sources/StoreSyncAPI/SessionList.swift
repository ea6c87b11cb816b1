/// The answer of `GET /v1/sessions`: the account's signed-in devices, first signed in first.
public struct SessionList: Sendable, Hashable, Codable {
    /// The devices.
    public var sessions: [DeviceSession]

    /// Creates a session list.
    ///
    /// - Parameter sessions: The devices.
    public init(sessions: [DeviceSession]) {
        self.sessions = sessions
    }
}
