import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting

extension MixedLoad {
    /// A request made before the run, so the bench process only sends while it is measured.
    struct Request: Sendable {
        let path: String
        let token: String?
        let body: Data
        /// More headers, e.g. the client address a sign-in comes from.
        var headers: [String: String] = [:]
        /// What the server took by its answer, or why the answer is wrong.
        let accepted: @Sendable (TestResponse) throws -> Int

        /// Sends the request; answers what the server took and its own time for it.
        func send(to server: ServerProcess) async throws -> SteadyRate.Answer {
            let response = try await server.send("POST", path, token: token, body: body, headers: headers, timeout: .seconds(60))
            guard response.status == 200 else {
                throw BenchError("\(path) answered \(response.status): \(String(decoding: response.body.prefix(300), as: UTF8.self))")
            }
            return SteadyRate.Answer(accepted: try accepted(response), serverMilliseconds: try response.serverMilliseconds(of: path))
        }
    }

    /// Every request of the run, in sending order per kind.
    struct Requests: Sendable {
        var restoresOf10: [Request] = []
        var restoresOf100: [Request] = []
        var notifications: [Request] = []
        var signIns: [Request] = []
        /// Every transaction id the restores and notifications carry.
        var transactionIds: [String] = []
    }

    /// Transaction ids of the run's restores start here, and those of its renewals at
    /// ``firstRenewalId``; neither range meets the seed's or the other phases'.
    static let firstRestoreId: Int64 = 5_000_000_000_000
    static let firstRenewalId: Int64 = 5_500_000_000_000

    /// Signs up an account for each restore (each restores new purchases, as a new device of a
    /// new user does) and a few for the sign-ins, and signs every JWS.
    func prepare() async throws -> Requests {
        var requests = Requests()
        let entries = SignedEntries(signer: workspace.signer)
        var nextId = Self.firstRestoreId
        for (size, rate) in [(10, Self.restoresOf10PerSecond), (100, Self.restoresOf100PerSecond)] {
            for _ in 0..<Int(rate * Double(seconds)) {
                let session = try await BenchClients.signUp(on: server.process, email: BenchClients.email("mixed"))
                let records = entries.purchases(count: size, firstId: nextId)
                nextId += Int64(size)
                requests.transactionIds += records.map(\.transactionId)
                let request = Request(
                    path: "/v1/restore", token: session.token,
                    body: try StoreSyncJSON.makeEncoder().encode(RestoreRequest(entries: records, userInitiated: true))
                ) { response in
                    let verdicts = try response.decode(SyncResponse.self).verdicts
                    let accepted = verdicts.filter { $0.verdict == .accepted }.count
                    guard accepted == size else { throw BenchError("a restore of \(size) new entries got \(accepted) accepted") }
                    return accepted
                }
                if size == 10 { requests.restoresOf10.append(request) } else { requests.restoresOf100.append(request) }
            }
        }
        try requests.notifications = renewalNotifications(count: Int(Self.notificationsPerSecond * Double(seconds)), into: &requests.transactionIds)
        requests.signIns = try await signIns(count: Int(Self.signInsPerSecond * Double(seconds)))
        return requests
    }

    /// `DID_RENEW` of the monthly subscriptions of the hot set's accounts, in the set's order
    /// (round again when it has fewer), each with a renewal no one has seen.
    private func renewalNotifications(count: Int, into transactionIds: inout [String]) throws -> [Request] {
        let subscriptions = (0..<hotSet.count).compactMap { BenchSeeder.monthlySubscription(ofAccount: hotSet.accountNumber($0)) }
        guard !subscriptions.isEmpty else { throw BenchError("the hot set holds no monthly subscription to renew") }
        let entries = SignedEntries(signer: workspace.signer)
        return try (0..<count).map { index in
            let renewal = entries.renewal(
                of: subscriptions[index % subscriptions.count], transactionId: Self.firstRenewalId + Int64(index))
            transactionIds.append(renewal.transactionId)
            let payload = workspace.signer.signNotification(
                type: .didRenew, signedDate: renewal.signedDate, environment: .sandbox, transaction: renewal)
            return Request(
                path: "/v1/notifications/appstore", token: nil,
                body: try StoreSyncJSON.makeEncoder().encode(NotificationRequest(signedPayload: payload))
            ) { response in
                let status = (try JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["status"] as? String
                guard status == "processed" else { throw BenchError("a renewal notification was \(status ?? "not answered")") }
                return 1
            }
        }
    }

    /// Sign-ins to a few accounts in turn, each making a session.
    private func signIns(count: Int) async throws -> [Request] {
        var emails: [String] = []
        for _ in 0..<min(count, 5) {
            let email = BenchClients.email("mixed-sign-in")
            _ = try await BenchClients.signUp(on: server.process, email: email)
            emails.append(email)
        }
        return try (0..<count).map { index in
            let credentials = Credentials(email: emails[index % emails.count], password: TestServer.password, deviceName: "bench")
            return Request(
                path: "/v1/sessions", token: nil, body: try StoreSyncJSON.makeEncoder().encode(credentials),
                headers: BenchClients.anotherClient()
            ) { response in
                _ = try response.decode(SessionResponse.self)
                return 1
            }
        }
    }
}
