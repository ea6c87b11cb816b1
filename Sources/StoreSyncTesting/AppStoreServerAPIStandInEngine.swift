import AppStoreVerification
import Crypto
import Foundation
import Hummingbird
import NIOCore
import StoreSyncCore

/// Answers the stand-in's requests: checks the token, logs the request, serves a queued fault
/// or the endpoint's data, signing every item with the test PKI as it goes out.
final class AppStoreServerAPIStandInEngine: Sendable {
    /// The endpoints the stand-in serves, with their path parameter.
    enum Endpoint {
        case transactionHistory(String)
        case subscriptionStatuses(String)
        case notificationHistory
        case orderLookup(String)
        case requestTestNotification
        case testNotificationStatus(String)
    }

    let signer: AppStoreTestSigner
    let environment: AppStoreEnvironment
    let pageSize: Int
    let now: @Sendable () -> Date
    let state: AppStoreServerAPIStandInState
    let tokenCheck: AppStoreServerAPITokenCheck
    /// Signs as ``signer`` does, for another bundle id.
    let foreignSigner: AppStoreTestSigner
    /// Signs with a PKI nobody trusts.
    let untrustedSigner: AppStoreTestSigner

    init(
        key: TestAppStoreAPIKey, signer: AppStoreTestSigner, environment: AppStoreEnvironment, pageSize: Int,
        notificationURL: URL?, now: @escaping @Sendable () -> Date
    ) throws {
        self.signer = signer
        self.environment = environment
        self.pageSize = max(1, pageSize)
        self.now = now
        self.state = AppStoreServerAPIStandInState(notificationURL: notificationURL)
        self.tokenCheck = AppStoreServerAPITokenCheck(key: key, bundleId: signer.bundleId)
        self.foreignSigner = AppStoreTestSigner(
            pki: signer.pki, bundleId: signer.bundleId + ".other", appAppleId: signer.appAppleId + 1)
        self.untrustedSigner = AppStoreTestSigner(
            pki: try TestPKI.make(name: "Untrusted"), bundleId: signer.bundleId, appAppleId: signer.appAppleId)
    }

    /// The answer to one request.
    func answer(_ request: Request, endpoint: Endpoint) async throws -> Response {
        let body = try await request.body.collect(upTo: 1024 * 1024)
        let authorization = request.headers[.authorization]
        let refusal = tokenCheck.refusal(of: authorization, now: now())
        await state.log(
            AppStoreServerAPIStandInRequest(
                method: request.method.rawValue, path: request.uri.path,
                query: Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }) { $1 },
                body: body.readableBytes > 0 ? String(buffer: body) : nil,
                token: authorization.map { String($0.dropFirst("Bearer ".count)) }, tokenRefusal: refusal))
        if refusal != nil { return Response(status: .unauthorized) }
        if let fault = await state.nextFault() { return Self.response(for: fault) }
        switch endpoint {
        case .transactionHistory(let id):
            return await transactionHistory(for: id, revision: request.uri.queryParameters["revision"].map(String.init))
        case .subscriptionStatuses(let id):
            return await subscriptionStatuses(for: id)
        case .notificationHistory:
            let token = request.uri.queryParameters["paginationToken"].map(String.init)
            return await notificationHistory(Data(body.readableBytesView), paginationToken: token)
        case .orderLookup(let orderId):
            return await orderLookup(orderId)
        case .requestTestNotification:
            return await requestTestNotification()
        case .testNotificationStatus(let token):
            return await testNotificationStatus(token)
        }
    }

    /// Signs an item with ``signer``, or spoils it as the test asked.
    func signed(
        _ item: AppStoreServerAPIStandInItem,
        tamperings: [AppStoreServerAPIStandInItem: AppStoreServerAPIStandInTampering],
        _ sign: (AppStoreTestSigner) -> String
    ) -> String {
        switch tamperings[item] {
        case nil: sign(signer)
        case .foreignBundle?:
            if case .renewalInfo = item { signer.sign(payload: Data(#"{"originalTransactionId": 42}"#.utf8)) } else {
                sign(foreignSigner)
            }
        case .untrustedSigner?: sign(untrustedSigner)
        case .undecodable?: signer.sign(payload: Data(#"{"originalTransactionId": 42}"#.utf8))
        }
    }

    /// HTTP 200 with the JSON of `value` (dates as milliseconds, as Apple writes them).
    static func json(_ value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(value)) ?? Data()
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Apple's error body with an HTTP status.
    static func error(_ status: Int, _ code: AppStoreServerAPIErrorCode, _ message: String) -> Response {
        var response = json(AppStoreServerAPIErrorPayload(errorCode: code, errorMessage: message))
        response.status = .init(code: status)
        return response
    }

    private static func response(for fault: AppStoreServerAPIStandInFault) -> Response {
        switch fault {
        case .rateLimited(let retryAfter):
            var response = error(429, .rateLimitExceeded, "Rate limit exceeded.")
            if let retryAfter { response.headers[.retryAfter] = retryAfter }
            return response
        case .serverError(let status):
            return error(status, .generalInternal, "An unknown error occurred.")
        case .malformedJSON:
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"signedTransactions": ["#)))
        case .oversizedBody(let bytes):
            let text = #"{"padding":""# + String(repeating: "x", count: max(0, bytes - 14)) + #""}"#
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }
}
