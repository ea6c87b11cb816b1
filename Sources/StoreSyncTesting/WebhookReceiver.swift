public import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
public import StoreSyncAPI

/// A webhook receiver for tests: a loopback HTTP server that keeps every request StoreSync
/// POSTs to it, exactly as received, and answers each as the test says (2xx by default).
///
/// ```swift
/// try await WebhookReceiver.run { receiver in
///     // configure STORESYNC_WEBHOOK_URL = receiver.url, cause events, then
///     let requests = try await receiver.waitForRequests(count: 2)
/// }
/// ```
public final class WebhookReceiver: Sendable {
    /// One request as it arrived.
    public struct Received: Sendable {
        /// The raw body: what the signature covers.
        public let body: Data
        /// The `StoreSync-Signature` header.
        public let signature: String?
        /// The `Content-Type` header.
        public let contentType: String?
        /// The status the receiver answered.
        public let answered: Int

        /// The body decoded.
        ///
        /// - Returns: The event.
        /// - Throws: `DecodingError` when the body is not a ``StoreSyncAPI/WebhookEvent``.
        public func event() throws -> WebhookEvent {
            try StoreSyncJSON.makeDecoder().decode(WebhookEvent.self, from: body)
        }
    }

    /// Decides the status of a request, given it and how many requests came before it.
    public typealias Answer = @Sendable (_ body: Data, _ index: Int) -> Int

    private struct State {
        var received: [Received] = []
        var answer: Answer = { _, _ in 200 }
    }

    private let state = NIOLockedValueBox(State())
    /// Where StoreSync should POST: `http://127.0.0.1:<port>/hooks/storesync`.
    public let url: URL

    private init(port: Int) {
        url = URL(string: "http://127.0.0.1:\(port)/hooks/storesync")!
    }

    /// Serves a receiver for the duration of `body`.
    ///
    /// - Parameters:
    ///   - port: The port to listen on (one a test reserved earlier); 0 picks a free one.
    ///   - body: The test, given the receiver.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or when the server cannot start.
    public static func run<Result: Sendable>(
        port: Int = 0, _ body: @Sendable (WebhookReceiver) async throws -> Result
    ) async throws -> Result {
        let router = Router()
        let keeper = ReceiverBox()
        router.post("hooks/storesync") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            guard let receiver = keeper.receiver else { return Response(status: .serviceUnavailable) }
            let status = receiver.keep(
                Data(bytes.readableBytesView), signature: request.headers[HTTPField.Name("StoreSync-Signature")!],
                contentType: request.headers[.contentType])
            return Response(status: HTTPResponse.Status(code: status))
        }
        return try await LoopbackHTTPServer.run(router: router, label: "webhook-receiver", port: port) { bound in
            let receiver = WebhookReceiver(port: bound)
            keeper.set(receiver)
            return try await body(receiver)
        }
    }

    /// Answers from now on as `answer` says.
    ///
    /// - Parameter answer: The status for each request.
    public func answer(_ answer: @escaping Answer) {
        state.withLockedValue { $0.answer = answer }
    }

    /// Every request so far, in arrival order.
    public var received: [Received] { state.withLockedValue { $0.received } }

    /// Waits until at least `count` requests that were answered 2xx have arrived.
    ///
    /// - Parameters:
    ///   - count: How many.
    ///   - limit: How long to wait before throwing (a server that never sends).
    /// - Returns: Every request so far, the refused ones included.
    /// - Throws: ``TestServerError`` when they do not arrive in time.
    public func waitForDeliveries(count: Int, within limit: Duration = .seconds(60)) async throws -> [Received] {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let received = self.received
            if received.filter({ (200..<300).contains($0.answered) }).count >= count { return received }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestServerError.unexpected("the webhook receiver got \(received.count) requests, not \(count) deliveries")
    }

    private func keep(_ body: Data, signature: String?, contentType: String?) -> Int {
        state.withLockedValue { state in
            let status = state.answer(body, state.received.count)
            state.received.append(Received(body: body, signature: signature, contentType: contentType, answered: status))
            return status
        }
    }
}

/// Hands the receiver to the route once the server has bound its port.
private final class ReceiverBox: Sendable {
    private let box = NIOLockedValueBox<WebhookReceiver?>(nil)

    var receiver: WebhookReceiver? { box.withLockedValue { $0 } }

    func set(_ receiver: WebhookReceiver) {
        box.withLockedValue { $0 = receiver }
    }
}
