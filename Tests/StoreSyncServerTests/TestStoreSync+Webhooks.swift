import Crypto
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncServer
import StoreSyncTesting
import Testing

/// The secret the webhook tests' servers sign with.
let testWebhookSecret = "whsec-test-0123456789abcdef"

extension ServerConfiguration {
    /// Sends every event to `url`, signed with ``testWebhookSecret``, and looks for due
    /// deliveries every 20 ms (the tests move their clock, not wait on it).
    ///
    /// Each request may take a minute: the receiver answers from the test process, on the
    /// threads the whole suite shares, and an attempt that timed out while its answer was on
    /// its way would be sent again and counted twice.
    mutating func sendWebhooks(to url: URL) {
        webhookURL = url
        webhookSecret = testWebhookSecret
        webhookDelivery.pollInterval = 0.02
        webhookDelivery.requestTimeout = 60
    }
}

/// Checks a request's `StoreSync-Signature` the way a receiver would, with nothing of the
/// server's code: `t=<seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
func signatureVerifies(_ request: WebhookReceiver.Received, secret: String = testWebhookSecret) -> Bool {
    guard let header = request.signature else { return false }
    var fields: [String: String] = [:]
    for part in header.split(separator: ",") {
        let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
        if pair.count == 2 { fields[pair[0]] = pair[1] }
    }
    guard let timestamp = fields["t"], Int64(timestamp) != nil, let presented = fields["v1"] else { return false }
    var signed = Data("\(timestamp).".utf8)
    signed.append(request.body)
    let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8)))
    return mac.map { String(format: "%02x", $0) }.joined() == presented
}

/// Polls until `condition` holds, for at most a minute: deliveries travel asynchronously.
func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
    for _ in 0..<3000 {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("never happened: \(what)")
}

extension TestStoreSync {
    /// Every delivery in `state`, all pages, through the admin route.
    func webhookDeliveries(_ state: WebhookDeliveryState) async throws -> [WebhookDelivery] {
        var all: [WebhookDelivery] = []
        var after: Int64 = 0
        while true {
            let response = try await send(
                "GET", "/v1/admin/webhooks/deliveries?state=\(state.rawValue)&after=\(after)&limit=500", token: adminKey)
            #expect(response.status == 200, "\(response.problem?.detail ?? "")")
            let page = try response.decode(WebhookDeliveryPage.self)
            all += page.deliveries
            guard let next = page.nextAfter else { return all }
            after = next
        }
    }

    /// The delivery of an event, whatever its state.
    func webhookDelivery(_ id: Int64) async throws -> WebhookDelivery? {
        for state in WebhookDeliveryState.allCases {
            if let found = try await webhookDeliveries(state).first(where: { $0.id == id }) { return found }
        }
        return nil
    }

    /// How many deliveries have an attempt under way: claimed, and neither answered nor failed
    /// yet (a claim clears the last attempt's status and error, and the attempt's end sets one).
    func webhookAttemptsUnderWay() async throws -> Int {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT count(*) FROM webhook_deliveries
                WHERE state = 'pending' AND attempts > 0 AND last_status IS NULL AND last_error IS NULL
                """
            ).first.map { try $0.decode(Int.self) } ?? 0
        }
    }

    /// Every event's id and account, in the order they were appended.
    func eventIds() async throws -> [(id: Int64, account: UUID)] {
        try await database.withConnection { connection in
            try await connection.query("SELECT event_id, account_id FROM events ORDER BY event_id").map { row in
                let (id, account) = try row.decode((Int64, UUID).self)
                return (id, account)
            }
        }
    }
}

extension Array where Element == WebhookReceiver.Received {
    /// The events of the requests answered 2xx, in arrival order.
    func deliveredEvents() throws -> [WebhookEvent] {
        try filter { (200..<300).contains($0.answered) }.map { try $0.event() }
    }
}
