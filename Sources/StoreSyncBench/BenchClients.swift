import Foundation
import StoreSyncAPI
import StoreSyncTesting

/// The many users whose sign-ups and sign-ins the bench stands for. The server limits both per
/// client address, and every request of the bench leaves from loopback; its servers trust
/// loopback as a proxy (``trustedProxies``) and each sign-up names an address of its own in
/// `X-Forwarded-For`, from the range set aside for benchmarks (198.18.0.0/15, RFC 2544), as a
/// load balancer would for users on many networks.
enum BenchClients {
    /// `STORESYNC_TRUSTED_PROXIES` of the bench's servers.
    static let trustedProxies = "127.0.0.1/32,::1/128"

    /// Headers naming a client address no other sign-up of the run is likely to share.
    static func anotherClient() -> [String: String] {
        ["X-Forwarded-For": "198.18.\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"]
    }

    /// An email no other account of the run has, starting with `prefix`.
    static func email(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(12).lowercased())@example.com"
    }

    /// Creates an account with the test password from a fresh client address, and answers its
    /// session.
    static func signUp(on server: ServerProcess, email: String) async throws -> SessionResponse {
        let body = try StoreSyncJSON.makeEncoder().encode(
            Credentials(email: email, password: TestServer.password, deviceName: "bench"))
        let response = try await server.send("POST", "/v1/accounts", body: body, headers: anotherClient())
        guard response.status == 201 else {
            throw BenchError("sign-up answered \(response.status): \(String(decoding: response.body.prefix(300), as: UTF8.self))")
        }
        return try response.decode(SessionResponse.self)
    }
}
