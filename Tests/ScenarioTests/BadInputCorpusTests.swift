import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Bad input of every kind a client, an attacker or a broken proxy sends: each case must get
/// a 4xx answered with problem details and leave every table, version and event as it was.
@Suite("Bad input corpus") struct BadInputCorpusTests {
    /// What a case may use: two accounts, one of them holding a purchase, and a token whose
    /// session was signed out.
    struct Fixture {
        let server: TestServer
        let x: SessionResponse
        let y: SessionResponse
        let purchase: TestPurchase
        let signedOutToken: String
    }

    /// One request of the corpus.
    struct Request {
        var method = "POST"
        var path: String
        var token: String?
        var body: Data?
        var contentType: String? = "application/json"
    }

    static let maxBodyBytes = 64 * 1024

    enum Case: String, CaseIterable, CustomTestStringConvertible {
        case truncatedJWS = "truncated JWS"
        case garbageJWS = "garbage JWS"
        case oversizedJWS = "oversized JWS (under the body limit)"
        case jwsFromAnotherPKI = "JWS signed by an untrusted certificate chain"
        case garbageNotification = "garbage Server Notification"
        case hugeBody = "body over STORESYNC_MAX_BODY_BYTES"
        case deeplyNestedJSON = "deeply nested JSON"
        case malformedJSON = "malformed JSON"
        case wrongTypeFlag = "wrong type: userInitiated as a string"
        case wrongTypeEntries = "wrong type: entries as an object"
        case wrongTypeJWS = "wrong type: signedTransaction as a number"
        case wrongContentType = "form body instead of JSON"
        case otherAccountsEntitlements = "another account's id on the admin entitlements route with a device token"
        case otherAccountsByToken = "another account's appAccountToken on the admin lookup with a device token"
        case purchaseHistoryWithDeviceToken = "a purchase's history with a device token"
        case catalogWithDeviceToken = "defining a product with a device token"
        case reusedTokenRestore = "a token reused after sign-out (restore)"
        case reusedTokenEntitlements = "a token reused after sign-out (entitlements)"

        var testDescription: String { rawValue }

        /// The exact status when one is promised; otherwise any 4xx.
        var status: Int? {
            switch self {
            case .hugeBody: 413
            case .wrongContentType: 415
            case .reusedTokenRestore, .reusedTokenEntitlements, .otherAccountsEntitlements, .otherAccountsByToken,
                .purchaseHistoryWithDeviceToken, .catalogWithDeviceToken:
                401
            case .malformedJSON, .deeplyNestedJSON, .wrongTypeFlag, .wrongTypeEntries, .wrongTypeJWS: 400
            default: nil
            }
        }

        func request(_ fixture: Fixture) throws -> Request {
            let jws = fixture.purchase.jws
            let x = fixture.x.token
            switch self {
            case .truncatedJWS:
                return Request(path: "/v1/transactions", token: x, body: try json(UploadTransactionRequest(signedTransaction: String(jws.dropLast(40)))))
            case .garbageJWS:
                return Request(path: "/v1/transactions", token: x, body: try json(UploadTransactionRequest(signedTransaction: "eyJhbGciOi.###.garbage")))
            case .oversizedJWS:
                let segment = String(repeating: "A", count: 20_000)
                return Request(path: "/v1/transactions", token: x, body: try json(UploadTransactionRequest(signedTransaction: "\(segment).\(segment).\(segment)")))
            case .jwsFromAnotherPKI:
                let stranger = AppStoreTestSigner(pki: try TestPKI.make())
                var record = fixture.purchase.record
                record.transactionId = TestPurchase.nextId()
                record.originalTransactionId = record.transactionId
                return Request(path: "/v1/transactions", token: x, body: try json(UploadTransactionRequest(signedTransaction: stranger.signTransaction(record))))
            case .garbageNotification:
                return Request(path: "/v1/notifications/appstore", body: try json(NotificationRequest(signedPayload: "a.b.c")))
            case .hugeBody:
                let padding = String(repeating: "x", count: BadInputCorpusTests.maxBodyBytes * 2)
                return Request(path: "/v1/restore", token: x, body: Data(#"{"entries": [], "padding": "\#(padding)"}"#.utf8))
            case .deeplyNestedJSON:
                let nested = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
                return Request(path: "/v1/restore", token: x, body: Data(#"{"entries": \#(nested)}"#.utf8))
            case .malformedJSON:
                return Request(path: "/v1/restore", token: x, body: Data(#"{"entries": [{"transactionId": "#.utf8))
            case .wrongTypeFlag:
                return Request(path: "/v1/restore", token: x, body: Data(#"{"entries": [], "userInitiated": "yes"}"#.utf8))
            case .wrongTypeEntries:
                return Request(path: "/v1/restore", token: x, body: Data(#"{"entries": {"0": "lifetime"}}"#.utf8))
            case .wrongTypeJWS:
                return Request(path: "/v1/transactions", token: x, body: Data(#"{"signedTransaction": 42}"#.utf8))
            case .wrongContentType:
                return Request(path: "/v1/restore", token: x, body: Data("entries=all".utf8), contentType: "application/x-www-form-urlencoded")
            case .otherAccountsEntitlements:
                return Request(method: "GET", path: "/v1/admin/accounts/\(fixture.x.accountId.uuidString)/entitlements", token: fixture.y.token)
            case .otherAccountsByToken:
                return Request(method: "GET", path: "/v1/admin/entitlements?appAccountToken=\(fixture.x.appAccountToken.uuidString)", token: fixture.y.token)
            case .purchaseHistoryWithDeviceToken:
                return Request(method: "GET", path: "/v1/admin/purchases/\(fixture.purchase.record.originalTransactionId)", token: fixture.y.token)
            case .catalogWithDeviceToken:
                return Request(
                    method: "PUT", path: "/v1/admin/catalog/products/\(TestCatalog.lifetime)", token: fixture.y.token,
                    body: try json(ProductDefinition(type: .nonConsumable, entitlements: ["everything"])))
            case .reusedTokenRestore:
                return Request(path: "/v1/restore", token: fixture.signedOutToken, body: try json(RestoreRequest(entries: [], userInitiated: true)))
            case .reusedTokenEntitlements:
                return Request(method: "GET", path: "/v1/entitlements", token: fixture.signedOutToken)
            }
        }

        private func json(_ value: some Encodable) throws -> Data {
            try StoreSyncJSON.makeEncoder().encode(value)
        }
    }

    /// Everything a bad request could have changed.
    struct State: Equatable {
        let rows: [String: Int]
        let versions: [UUID: Int64]
        let owner: UUID?

        init(_ fixture: Fixture) async throws {
            rows = try await fixture.server.tableCounts()
            versions = try await fixture.server.versions()
            owner = try await fixture.server.owner(of: fixture.purchase.record.originalTransactionId)
        }
    }

    @Test("Bad input → 4xx problem details, nothing changed", arguments: Case.allCases)
    func badInputIsRefusedAndChangesNothing(_ badInput: Case) async throws {
        try await withLiveServer(configure: { $0.maxBodyBytes = Self.maxBodyBytes }) { server in
            let fixture = try await Self.fixture(on: server)
            let before = try await State(fixture)

            let request = try badInput.request(fixture)
            let response = try await server.send(
                request.method, request.path, token: request.token, body: request.body, contentType: request.contentType)

            #expect((400..<500).contains(response.status), "answered \(response.status)")
            if let status = badInput.status { #expect(response.status == status) }
            #expect(response.header("Content-Type")?.hasPrefix(Problem.mediaType) == true)
            let problem = try #require(response.problem, "no problem details in \(String(decoding: response.body.prefix(200), as: UTF8.self))")
            #expect(problem.status == response.status)
            #expect(!problem.type.isEmpty && !problem.title.isEmpty)
            #expect(try await State(fixture) == before, "the request changed stored state")
            #expect(try await server.send("GET", "/v1/entitlements", token: fixture.x.token).decode(Snapshot.self).entitlements.map(\.entitlementId) == ["premium"])
        }
    }

    static func fixture(on server: TestServer) async throws -> Fixture {
        let email = "x-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let x = try await server.signUp(email: email)
        let y = try await server.signUp()
        let purchase = TestPurchase.buy(TestCatalog.lifetime, on: server)
        let upload = try await server.send(
            "POST", "/v1/transactions", token: x.token, json: UploadTransactionRequest(signedTransaction: purchase.jws))
        try #require(upload.status == 200)
        // A second device of X signs in and out again: its token must be dead from then on.
        let login = try await server.send("POST", "/v1/sessions", json: Credentials(email: email, password: TestServer.password))
        let signedOut = try login.decode(SessionResponse.self)
        try #require(try await server.send("DELETE", "/v1/sessions/current", token: signedOut.token).status == 204)
        return Fixture(server: server, x: x, y: y, purchase: purchase, signedOutToken: signedOut.token)
    }
}
