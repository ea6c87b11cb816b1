import Foundation
import StoreSyncAPI
import StoreSyncTesting
import Testing

/// `Expect: 100-continue`, as curl sends it before a body over 1 MiB: the server answers
/// `100 Continue` before the client sends the body, instead of leaving it to wait out its own
/// timeout.
@Suite struct ExpectContinueTests {
    @Test func aRequestThatExpects100ContinueGetsItBeforeItsBodyIsSent() async throws {
        try await withLiveServer { server in
            let account = try await server.signUp()
            let body = #"{"entries":[],"userInitiated":true}"#
            let exchange = try await RawHTTPConnection.run(port: server.port) { connection in
                try connection.transmit(Self.head(token: account.token, length: body.utf8.count, expect: "100-continue"))
                // Nothing of the body has been sent: only the server's own initiative answers this.
                let interim = try connection.readHead()
                try connection.transmit(body)
                return (interim, try connection.readHead())
            }
            #expect(exchange.0.hasPrefix("HTTP/1.1 100 Continue"))
            #expect(exchange.1.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func aRequestWithoutTheExpectationGetsOnlyItsAnswer() async throws {
        try await withLiveServer { server in
            let account = try await server.signUp()
            let body = #"{"entries":[]}"#
            let answer = try await RawHTTPConnection.run(port: server.port) { connection in
                try connection.transmit(Self.head(token: account.token, length: body.utf8.count, expect: nil) + body)
                return try connection.readHead()
            }
            #expect(answer.hasPrefix("HTTP/1.1 200"))
        }
    }

    private static func head(token: String, length: Int, expect: String?) -> String {
        "POST /v1/restore HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(length)\r\n"
            + (expect.map { "Expect: \($0)\r\n" } ?? "") + "\r\n"
    }
}
