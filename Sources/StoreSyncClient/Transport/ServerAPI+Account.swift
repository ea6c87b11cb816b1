import Foundation
import StoreSyncAPI

/// The routes of a signed-in account's own lifecycle.
extension ServerAPI {
    func deleteAccount(password: String?, token: String) async throws(StoreSyncClientError) {
        let body = try password.map { password throws(StoreSyncClientError) in try encode(AccountDeletionRequest(password: password)) }
        _ = try await send("DELETE", "v1/accounts/current", token: token, json: body, expecting: [204, 200])
    }

    func changePassword(_ change: PasswordChangeRequest, token: String) async throws(StoreSyncClientError) {
        _ = try await send("PUT", "v1/accounts/current/password", token: token, json: try encode(change), expecting: [204, 200])
    }

    func sessions(token: String) async throws(StoreSyncClientError) -> SessionList {
        try decode(SessionList.self, from: try await send("GET", "v1/sessions", token: token, expecting: [200]))
    }

    func signOut(deviceId: UUID, token: String) async throws(StoreSyncClientError) {
        let path = "v1/sessions/\(deviceId.uuidString.lowercased())"
        _ = try await send("DELETE", path, token: token, expecting: [204, 200])
    }
}
