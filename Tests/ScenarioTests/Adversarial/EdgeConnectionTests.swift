import Foundation
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Finding 5 of the adversarial review: a connection cannot be held for free — silent and
/// half-sent ones are closed, their number is capped, and `100 Continue` invites a body only
/// from a request that may proceed.
@Suite("Adversarial: connections") struct EdgeConnectionTests {
    @Test func aConnectionThatSendsNothingIsClosedAfterTheIdleTimeout() async throws {
        try await withLiveServer(configure: { $0.httpIdleTimeoutSeconds = 1 }) { server in
            try await RawHTTPConnection.run(port: server.port) { connection in
                try connection.waitUntilClosed()
            }
        }
    }

    @Test(arguments: [
        "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: app",
        "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\":",
    ])
    func aHalfSentRequestIsClosedAfterTheIdleTimeout(part: String) async throws {
        try await withLiveServer(configure: { $0.httpIdleTimeoutSeconds = 1 }) { server in
            try await RawHTTPConnection.run(port: server.port) { connection in
                try connection.transmit(part)
                try connection.waitUntilClosed()
            }
        }
    }

    /// The connections already open keep being served; one beyond the maximum is closed as it
    /// opens; once one closes, there is room again.
    @Test func connectionsBeyondTheMaximumAreClosedAsTheyOpen() async throws {
        try await withLiveServer(configure: { $0.httpMaxConnections = 2 }) { server in
            let port = server.port
            let refusedSeries = "storesync_http_connections_refused_total"
            // Read in process: a request for /metrics would take one of the two places.
            let refusedBefore = TestMetrics.samples().value(refusedSeries)
            let served = try await RawHTTPConnection.run(port: port) { first in
                let second = try RawHTTPConnection.open(port: port)
                // Each answers a request: both are counted before the third opens.
                let heads = try [first, second].map { connection in
                    try connection.transmit(Self.liveProbe)
                    return try connection.readHead()
                }
                let third = try RawHTTPConnection.open(port: port)
                try third.waitUntilClosed()
                try second.transmit(Self.liveProbe)
                return heads + [try second.readHead()]
            }
            #expect(served.allSatisfy { $0.hasPrefix("HTTP/1.1 200") }, "\(served)")
            #expect(try await Self.eventuallyServed(port: port))
            let refusedAfter = TestMetrics.samples().value(refusedSeries)
            #expect(refusedAfter >= refusedBefore + 1, "the connection turned away is counted")
        }
    }

    /// A request its route refuses without reading the body — no valid token, or a declared
    /// length over the route's limit — gets its final answer instead of `100 Continue`, and the
    /// connection closes (the client never sends the body it announced).
    @Test(arguments: [
        (
            "POST /v1/restore HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer not-a-token\r\n"
                + "Content-Type: application/json\r\nContent-Length: 5000000\r\nExpect: 100-continue\r\n\r\n",
            "HTTP/1.1 401"
        ),
        (
            "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1048576\r\nExpect: 100-continue\r\n\r\n",
            "HTTP/1.1 413"
        ),
    ])
    func aRequestThatMayNotProceedIsNotInvitedToSendItsBody(head: String, answer expected: String) async throws {
        try await withLiveServer { server in
            let answer = try await RawHTTPConnection.run(port: server.port) { connection in
                try connection.transmit(head)
                let answer = try connection.readHead()
                try connection.waitUntilClosed()
                return answer
            }
            #expect(answer.hasPrefix(expected), "\(answer)")
        }
    }

    @Test func aRequestThatMayProceedIsInvitedAndAnswered() async throws {
        try await withLiveServer { server in
            let body = #"{"email":"nobody@example.com","password":"wrong password!"}"#
            let head = "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n"
            let heads = try await RawHTTPConnection.run(port: server.port) { connection in
                try connection.transmit(head)
                let interim = try connection.readHead()
                try connection.transmit(body)
                return [interim, try connection.readHead()]
            }
            #expect(heads[0].hasPrefix("HTTP/1.1 100 Continue"), "\(heads)")
            #expect(heads[1].hasPrefix("HTTP/1.1 401"), "\(heads)")
        }
    }

    private static let liveProbe = "GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// Whether a new connection is served within a few tries: a closed connection's place is
    /// given back when the server notices the close, a moment after the client closed it.
    private static func eventuallyServed(port: Int) async throws -> Bool {
        for _ in 0..<100 {
            let head = try? await RawHTTPConnection.run(port: port) { connection in
                try connection.transmit(liveProbe)
                return try connection.readHead()
            }
            if head?.hasPrefix("HTTP/1.1 200") == true { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}
