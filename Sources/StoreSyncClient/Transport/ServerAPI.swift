import Foundation
import StoreSyncAPI
import StoreSyncWire

/// StoreSync's HTTP API as the client calls it: builds requests, sends them through the
/// transport and turns every failure into a ``StoreSyncClientError``.
struct ServerAPI: Sendable {
    let baseURL: URL
    let transport: any StoreSyncTransport

    func signUp(_ credentials: Credentials) async throws(StoreSyncClientError) -> SessionResponse {
        try decode(SessionResponse.self, from: try await send("POST", "v1/accounts", json: try encode(credentials), expecting: [201]))
    }

    func signIn(_ credentials: Credentials) async throws(StoreSyncClientError) -> SessionResponse {
        try decode(SessionResponse.self, from: try await send("POST", "v1/sessions", json: try encode(credentials), expecting: [200]))
    }

    func signOut(token: String) async throws(StoreSyncClientError) {
        _ = try await send("DELETE", "v1/sessions/current", token: token, expecting: [204, 200])
    }

    func upload(_ signedTransaction: String, token: String) async throws(StoreSyncClientError) -> SyncAnswer {
        let body = UploadTransactionRequest(signedTransaction: signedTransaction)
        return try syncAnswer(try await send("POST", "v1/transactions", token: token, json: try encode(body), expecting: [200]))
    }

    func restore(_ request: RestoreRequest, token: String) async throws(StoreSyncClientError) -> SyncAnswer {
        try syncAnswer(try await send("POST", "v1/restore", token: token, json: try encode(request), expecting: [200]))
    }

    /// An upload's or a restore's answer, with the ETag of its snapshot and the snapshot's
    /// bytes as received, which its signature covers.
    ///
    /// Every byte goes through `JSONDecoder` once: the snapshot from its own bytes (what is
    /// verified and kept), the verdicts from the rest of the body with `null` standing where
    /// the snapshot was. The rest holds every byte outside the snapshot's value, and the
    /// scanner that located it splits strings and nesting by JSON's own rules, so the answer is
    /// accepted exactly when the whole body would decode, and reads the same. A snapshot that
    /// cannot be located (an older or foreign encoder's layout) is decoded with the whole body.
    private func syncAnswer(_ response: TransportResponse) throws(StoreSyncClientError) -> SyncAnswer {
        let etag = response.header("ETag")
        let body = response.body
        guard let range = SyncResponse.snapshotRange(in: body) else {
            return SyncAnswer(response: try decode(SyncResponse.self, from: body), snapshotBytes: nil, etag: etag)
        }
        let snapshotStart = body.startIndex + range.lowerBound
        let snapshotEnd = body.startIndex + range.upperBound
        let bytes = Data(body[snapshotStart..<snapshotEnd])
        var rest = Data(capacity: body.count - bytes.count + 4)
        rest.append(body[..<snapshotStart])
        rest.append(contentsOf: "null".utf8)
        rest.append(body[snapshotEnd...])
        let verdicts = try decode(SyncAnswer.Verdicts.self, from: rest).verdicts
        let snapshot: Snapshot
        do {
            snapshot = try StoreSyncClient.decoder.decode(Snapshot.self, from: bytes)
        } catch {
            throw .malformedResponse("\(SyncResponse.self): snapshot: \(error)")
        }
        return SyncAnswer(response: SyncResponse(verdicts: verdicts, snapshot: snapshot), snapshotBytes: bytes, etag: etag)
    }

    /// `GET /v1/catalog`: the products, and the body as received (kept for offline starts).
    func catalog() async throws(StoreSyncClientError) -> (CatalogResponse, Data) {
        let response = try await send("GET", "v1/catalog", expecting: [200])
        return (try decode(CatalogResponse.self, from: response), response.body)
    }

    /// `GET /v1/entitlements`: the response, 200 with the snapshot or 304.
    func entitlements(token: String, ifNoneMatch: String?) async throws(StoreSyncClientError) -> TransportResponse {
        let headers = ifNoneMatch.map { ["If-None-Match": $0] } ?? [:]
        return try await send("GET", "v1/entitlements", token: token, headers: headers, expecting: [200, 304])
    }

    func send(
        _ method: String, _ path: String, token: String? = nil, json body: Data? = nil,
        headers extra: [String: String] = [:], expecting statuses: Set<Int>
    ) async throws(StoreSyncClientError) -> TransportResponse {
        var headers = extra
        headers["Accept"] = "application/json"
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if body != nil { headers["Content-Type"] = "application/json" }
        let request = TransportRequest(method: method, url: baseURL.appendingPathComponent(path), headers: headers, body: body)
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch let error as StoreSyncClientError {
            throw error
        } catch {
            throw .offline
        }
        guard statuses.contains(response.status) else { throw Self.error(for: response) }
        return response
    }

    func encode(_ value: some Encodable) throws(StoreSyncClientError) -> Data {
        do {
            return try StoreSyncJSON.makeEncoder().encode(value)
        } catch {
            // Only a date outside years 0001–9999 fails, and only in a record read from a JWS.
            throw .malformedTransaction("the request could not be encoded: \(error)")
        }
    }

    func decode<Body: Decodable>(_ type: Body.Type, from response: TransportResponse) throws(StoreSyncClientError) -> Body {
        try decode(Body.self, from: response.body)
    }

    func decode<Body: Decodable>(_ type: Body.Type, from body: Data) throws(StoreSyncClientError) -> Body {
        do {
            return try StoreSyncClient.decoder.decode(Body.self, from: body)
        } catch {
            throw .malformedResponse("\(Body.self): \(error)")
        }
    }

    /// The typed error for an unexpected status.
    static func error(for response: TransportResponse) -> StoreSyncClientError {
        let problem = try? StoreSyncJSON.makeDecoder().decode(Problem.self, from: response.body)
        switch response.status {
        case 401 where problem?.problemType == .invalidCredentials:
            // Wrong email or password is the input's fault, not an expired session.
            return .invalidInput(problem ?? Problem(.invalidCredentials))
        case 401 where problem?.isFromStoreSync == true:
            return .unauthorized
        case 409 where problem?.problemType == .ownedByOtherAccount:
            return .ownedByOtherAccount(problemType: problem?.type ?? ProblemType.ownedByOtherAccount.uri, detail: problem?.detail)
        case 429:
            return .rateLimited(retryAfter: response.header("Retry-After").flatMap(TimeInterval.init))
        case 408:
            return .server(status: 408, problem)
        case 400..<500:
            return .invalidInput(problem ?? foreignProblem(response))
        default:
            return .server(status: response.status, problem)
        }
    }

    /// What a 4xx without a problem body is reported as: most likely something between the
    /// device and the server answered (a captive portal, a proxy, a firewall), and the detail
    /// says so, so an app or its support can tell it from StoreSync's own refusals.
    private static func foreignProblem(_ response: TransportResponse) -> Problem {
        let contentType = response.header("Content-Type") ?? "no content type"
        return Problem(
            type: "about:blank", title: "HTTP \(response.status)", status: response.status,
            detail: "not a StoreSync answer (\(contentType)): a captive portal, proxy or firewall may be in the way")
    }
}
