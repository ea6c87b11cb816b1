import AppStoreVerification
public import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import StoreSyncCore

/// A local stand-in for Apple's two verifyReceipt endpoints, on 127.0.0.1 and a free port,
/// answering what the test scripts. Point ``AppStoreVerification/ReceiptVerifierConfiguration``
/// at ``productionURL`` and ``sandboxURL``.
public final class AppStoreReceiptStandIn: Sendable {
    /// Apple's production endpoint, stood in for.
    public let productionURL: URL
    /// Apple's sandbox endpoint, stood in for.
    public let sandboxURL: URL
    private let log: RequestLog

    private init(port: Int, log: RequestLog) throws {
        guard let production = URL(string: "http://127.0.0.1:\(port)/production/verifyReceipt"),
            let sandbox = URL(string: "http://127.0.0.1:\(port)/sandbox/verifyReceipt")
        else { throw LoopbackHTTPServerError.noPort }
        self.productionURL = production
        self.sandboxURL = sandbox
        self.log = log
    }

    /// Every request received so far, in order.
    public var requests: [AppStoreReceiptStandInRequest] {
        get async { await log.requests }
    }

    /// Runs a stand-in for the duration of `body`, then stops it.
    ///
    /// - Parameters:
    ///   - reply: What to answer to each request.
    ///   - body: The test, given the running stand-in.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or an error when the server cannot start.
    @discardableResult
    public static func run<Result: Sendable>(
        reply: @escaping @Sendable (AppStoreReceiptStandInRequest) -> AppStoreReceiptStandInReply,
        _ body: @Sendable (AppStoreReceiptStandIn) async throws -> Result
    ) async throws -> Result {
        let log = RequestLog()
        let router = Router()
        for endpoint in [AppStoreEnvironment.production, .sandbox] {
            router.post("\(endpoint.rawValue)/verifyReceipt") { request, _ -> Response in
                let bytes = try await request.body.collect(upTo: 8 * 1024 * 1024)
                let posted = (try? JSONDecoder().decode(PostedBody.self, from: Data(bytes.readableBytesView)))
                let received = AppStoreReceiptStandInRequest(
                    endpoint: endpoint, receiptData: posted?.receiptData, password: posted?.password,
                    excludeOldTransactions: posted?.excludeOldTransactions)
                await log.append(received)
                return try await response(for: reply(received))
            }
        }
        return try await LoopbackHTTPServer.run(router: router, label: "storesync.testing.receipt-stand-in") { port in
            try await body(try AppStoreReceiptStandIn(port: port, log: log))
        }
    }

    private static func response(for reply: AppStoreReceiptStandInReply) async throws -> Response {
        switch reply {
        case .status(let status, let isRetryable):
            var object: [String: Any] = ["status": status]
            if let isRetryable { object["is-retryable"] = isRetryable }
            return json(object)
        case .receipt(let bundleId, let environment, let inApp, let latest, let status, let createdAt):
            let encoder = JSONEncoder()
            var receipt: [String: Any] = [
                "bundle_id": bundleId, "in_app": try JSONSerialization.jsonObject(with: encoder.encode(inApp)),
            ]
            if let createdAt { receipt["receipt_creation_date_ms"] = String(createdAt.millisecondsSince1970) }
            var object: [String: Any] = ["status": status, "environment": environment.appleName, "receipt": receipt]
            if let latest { object["latest_receipt_info"] = try JSONSerialization.jsonObject(with: encoder.encode(latest)) }
            return json(object)
        case .body(let text):
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: text)))
        case .httpStatus(let code):
            return Response(status: .init(code: code))
        case .delayed(let wait, let then):
            // Once the test is over and its stand-in stops, the reply goes at once (to a
            // client that has usually given up) rather than holding the stop for the delay.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
            return try await response(for: then)
        }
    }

    private static func json(_ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: .sortedKeys)) ?? Data()
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private struct PostedBody: Decodable {
        var receiptData: String?
        var password: String?
        var excludeOldTransactions: Bool?

        enum CodingKeys: String, CodingKey {
            case receiptData = "receipt-data"
            case password
            case excludeOldTransactions = "exclude-old-transactions"
        }
    }

    private actor RequestLog {
        var requests: [AppStoreReceiptStandInRequest] = []
        func append(_ request: AppStoreReceiptStandInRequest) { requests.append(request) }
    }
}
