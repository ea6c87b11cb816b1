import Foundation

/// The session as persisted: what ``ClientSession`` shows plus the bearer token, which never
/// appears in a description.
struct StoredSession: Codable, Sendable, Hashable, CustomStringConvertible {
    var accountId: UUID
    var appAccountToken: UUID
    var deviceId: UUID
    /// `nil` for a session the app's backend minted.
    var email: String?
    var token: String

    var publicSession: ClientSession {
        ClientSession(accountId: accountId, deviceId: deviceId, appAccountToken: appAccountToken, email: email)
    }

    var description: String { "StoredSession(\(publicSession), token: <redacted>)" }
}

/// An ETag and the snapshot version it was received with: sent as `If-None-Match` only while
/// the cached snapshot is that version.
struct StoredETag: Codable, Sendable, Hashable {
    var etag: String
    var version: Int64
}
