import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import Testing

@Suite struct ErrorMappingTests {
    static func response(_ status: Int, _ type: ProblemType? = nil, headers: [String: String] = [:]) throws -> TransportResponse {
        let body = try type.map { try StoreSyncJSON.makeEncoder().encode(Problem($0, status: status, detail: "because")) }
        return TransportResponse(status: status, headers: headers, body: body ?? Data())
    }

    @Test func expiredSessionIsUnauthorizedButAWrongPasswordIsInvalidInput() throws {
        #expect(ServerAPI.error(for: try Self.response(401, .unauthorized)) == .unauthorized)
        // A 401 that is not StoreSync's (a captive portal's login page) says nothing of the session.
        #expect(ServerAPI.error(for: try Self.response(401)).isForeignAnswer)
        #expect(ServerAPI.error(for: try Self.response(401, .invalidCredentials))
            == .invalidInput(Problem(.invalidCredentials, status: 401, detail: "because")))
    }

    @Test func conflictOverOwnershipCarriesTheProblemTypeWhileATakenEmailIsInvalidInput() throws {
        #expect(ServerAPI.error(for: try Self.response(409, .ownedByOtherAccount))
            == .ownedByOtherAccount(problemType: ProblemType.ownedByOtherAccount.uri, detail: "because"))
        #expect(ServerAPI.error(for: try Self.response(409, .emailTaken))
            == .invalidInput(Problem(.emailTaken, status: 409, detail: "because")))
    }

    @Test func rateLimitReadsRetryAfter() throws {
        #expect(ServerAPI.error(for: try Self.response(429, .rateLimited, headers: ["retry-after": "17"])) == .rateLimited(retryAfter: 17))
        #expect(ServerAPI.error(for: try Self.response(429)) == .rateLimited(retryAfter: nil))
    }

    @Test(arguments: [500, 502, 503, 408, 302])
    func serverFailuresAreRetriable(status: Int) throws {
        let error = ServerAPI.error(for: try Self.response(status))
        #expect(error == .server(status: status, nil))
        #expect(error.isRetriable)
    }

    @Test(arguments: [400, 403, 404, 413, 415, 422])
    func otherClientErrorsArePermanentInvalidInput(status: Int) throws {
        let error = ServerAPI.error(for: TransportResponse(status: status, body: Data("<html>proxy</html>".utf8)))
        guard case .invalidInput(let problem) = error else {
            Issue.record("expected invalidInput, got \(error)")
            return
        }
        #expect(problem.status == status)
        #expect(!error.isRetriable)
    }

    @Test func onlyTheServersRefusalOfTheSignedDataDropsAQueuedUpload() throws {
        #expect(ServerAPI.error(for: try Self.response(422, .invalidSignedData)).refusesUploadForGood)
        #expect(ServerAPI.error(for: try Self.response(409, .ownedByOtherAccount)).refusesUploadForGood)
        for type in [ProblemType.invalidRequest, .malformedJSON, .payloadTooLarge, .forbidden, .notFound, .unsupportedMediaType] {
            #expect(!ServerAPI.error(for: try Self.response(type.status, type)).refusesUploadForGood, "\(type.slug)")
        }
        let portal = ServerAPI.error(
            for: TransportResponse(status: 403, headers: ["Content-Type": "text/html"], body: Data("<html>Wi-Fi</html>".utf8)))
        #expect(!portal.refusesUploadForGood)
        guard case .invalidInput(let problem) = portal else {
            Issue.record("expected invalidInput, got \(portal)")
            return
        }
        #expect(problem.type == "about:blank")
        #expect(problem.detail?.contains("text/html") == true, "the app can tell it was not StoreSync answering")
    }

    @Test func answerIsForeignUnlessItIsAStoreSyncProblem() throws {
        let html = TransportResponse(status: 403, headers: ["Content-Type": "text/html"], body: Data("<html>Wi-Fi</html>".utf8))
        #expect(ServerAPI.error(for: html).isForeignAnswer)
        #expect(ServerAPI.error(for: TransportResponse(status: 404, body: Data())).isForeignAnswer)
        let otherProblem = TransportResponse(
            status: 403, headers: ["Content-Type": Problem.mediaType],
            body: Data(#"{"type":"https://proxy.example/errors/blocked","title":"Blocked","status":403}"#.utf8))
        #expect(ServerAPI.error(for: otherProblem).isForeignAnswer, "someone else's problem body")

        for type in [ProblemType.forbidden, .notFound, .invalidRequest, .invalidCredentials, .ownedByOtherAccount] {
            #expect(!ServerAPI.error(for: try Self.response(type.status, type)).isForeignAnswer, "\(type.slug)")
        }
        let newerType = TransportResponse(
            status: 400, headers: ["Content-Type": Problem.mediaType],
            body: Data(#"{"type":"\#(ProblemType.uriPrefix)added-later","title":"Added later","status":400}"#.utf8))
        #expect(!ServerAPI.error(for: newerType).isForeignAnswer, "a type this client does not know yet is still StoreSync's")
        #expect(!StoreSyncClientError.offline.isForeignAnswer)
    }

    @Test func transportFailureIsOffline() async throws {
        struct Unreachable: StoreSyncTransport {
            func send(_ request: TransportRequest) async throws -> TransportResponse { throw URLError(.timedOut) }
        }
        let client = StoreSyncClient(
            configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!, serverPublicKey: ""),
            store: InMemoryStore(), transport: Unreachable())
        await #expect(throws: StoreSyncClientError.offline) {
            try await client.signIn(email: "a@example.com", password: "irrelevant password")
        }
        #expect(await client.session == nil)
    }
}
