import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite struct RequestEdgeTests {
    @Test func malformedJSONIsA400ProblemAndChangesNothing() async throws {
        try await withServer { server in
            let response = try await server.send("POST", "/v1/accounts", body: Data("{\"email\": ".utf8))
            #expect(response.status == 400)
            #expect(response.problem?.type == ProblemType.malformedJSON.uri)
            #expect(try await server.count("accounts") == 0)
        }
    }

    @Test func aWrongFieldTypeIsNamed() async throws {
        try await withServer { server in
            let session = try await server.signUp()
            let response = try await server.send(
                "POST", "/v1/restore", token: session.token,
                body: Data(#"{"entries": [], "userInitiated": "yes"}"#.utf8))
            #expect(response.status == 400)
            #expect(response.problem?.field == "userInitiated")
        }
    }

    @Test func aMissingFieldIsNamed() async throws {
        try await withServer { server in
            let response = try await server.send("POST", "/v1/accounts", body: Data(#"{"email": "a@example.com"}"#.utf8))
            #expect(response.status == 400)
            #expect(response.problem?.field == "password")
        }
    }

    @Test func unknownFieldsAreIgnored() async throws {
        try await withServer { server in
            let body = #"{"email": "extra@example.com", "password": "correct horse battery", "favouriteColour": "teal"}"#
            let response = try await server.send("POST", "/v1/accounts", body: Data(body.utf8))
            #expect(response.status == 201)
        }
    }

    @Test func aBodyThatIsNotJSONIs415() async throws {
        try await withServer { server in
            let response = try await server.send(
                "POST", "/v1/accounts", body: Data("email=a".utf8), contentType: "application/x-www-form-urlencoded")
            #expect(response.status == 415)
            #expect(response.problem?.type == ProblemType.unsupportedMediaType.uri)
        }
    }

    @Test func aBodyOverTheLimitIs413() async throws {
        try await withServer(configure: { $0.maxBodyBytes = 4096 }) { server in
            let huge = Data("{\"email\": \"\(String(repeating: "x", count: 10_000))\"}".utf8)
            let response = try await server.send("POST", "/v1/accounts", body: huge)
            #expect(response.status == 413)
            #expect(response.problem?.type == ProblemType.payloadTooLarge.uri)
        }
    }

    @Test func deeplyNestedJSONIsRefusedCleanly() async throws {
        try await withServer { server in
            let session = try await server.signUp()
            let nested = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            let response = try await server.send(
                "POST", "/v1/restore", token: session.token, body: Data("{\"entries\": \(nested)}".utf8))
            #expect(response.status == 400)
        }
    }

    @Test func unknownRoutesAre404ProblemsWithARequestId() async throws {
        try await withServer { server in
            let response = try await server.send("GET", "/v1/nothing-here")
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.header("X-Request-Id")?.isEmpty == false)
        }
    }

    /// The load balancer's request id is kept, so its log and the server's meet; a client's,
    /// or one that is no plain token, is replaced by the server's own.
    @Test func aTrustedProxysRequestIdIsKeptAndAnyOtherReplaced() async throws {
        try await withLiveServer(configure: { $0.trustedProxies = TrustedProxies(list: "127.0.0.1/32")! }) { server in
            let kept = try await server.send("GET", "/health/live", headers: ["X-Request-Id": "lb-7f3a:1"])
            #expect(kept.header("X-Request-Id") == "lb-7f3a:1")
            for unfit in ["has space", String(repeating: "a", count: 129), "quote\"d", "{\"json\":1}"] {
                let replaced = try await server.send("GET", "/health/live", headers: ["X-Request-Id": unfit])
                #expect(replaced.header("X-Request-Id")?.isEmpty == false)
                #expect(replaced.header("X-Request-Id") != unfit)
            }
        }
        try await withLiveServer { server in
            let client = try await server.send("GET", "/health/live", headers: ["X-Request-Id": "lb-7f3a:1"])
            #expect(client.header("X-Request-Id") != "lb-7f3a:1", "no proxy is trusted: the client's id is not")
        }
    }

    @Test func healthRoutesAnswer() async throws {
        try await withServer { server in
            let live = try await server.send("GET", "/health/live")
            let ready = try await server.send("GET", "/health/ready")
            #expect(live.status == 200)
            #expect(ready.status == 200)
        }
    }
}
