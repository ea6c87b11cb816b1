import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreSyncAPI

/// POSTs one webhook event to the receiver, signed, within a deadline, reading at most a few
/// kilobytes of the answer: a receiver can slow a delivery down, never hold it or flood it.
struct WebhookSender: Sendable {
    let url: URL
    let secret: String
    let client: HTTPClient
    let timeout: TimeInterval
    let now: @Sendable () -> Date

    /// The most of an answer read; the rest is dropped with the connection.
    static let maximumAnswerBytes = 16 * 1024
    /// How much of a refused answer is kept for operators.
    static let excerptBytes = 200

    /// How one attempt ended.
    enum Outcome: Sendable, Equatable {
        /// The receiver answered 2xx.
        case delivered(status: Int)
        /// Any other answer (`status`), or none (`status` nil): a transport error or the deadline.
        case refused(status: Int?, reason: String)
    }

    /// A client that does not follow redirects (a receiver's redirect is an answer, not a
    /// place to send signed events), gives up on connections that stall, and makes one
    /// connection attempt per delivery attempt: the delivery loop has its own backoff, and the
    /// client's would carry a receiver's outage over into the first attempts after it.
    static func makeClient(policy: WebhookDeliveryPolicy) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(5), read: .milliseconds(Int64(policy.requestTimeout * 1000))))
        configuration.httpVersion = .http1Only
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = policy.concurrentDeliveries
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends `event` once.
    func send(_ event: WebhookEvent) async -> Outcome {
        let body: Data
        do {
            body = try StoreSyncJSON.makeEncoder().encode(event)
        } catch {
            return .refused(status: nil, reason: "the event does not encode: \(error)")
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "StoreSync-Webhook")
        request.headers.add(name: WebhookSignature.headerName, value: WebhookSignature.header(for: body, secret: secret, at: now()))
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            let status = Int(response.status.code)
            let answer = try await Self.prefix(of: response.body)
            if (200..<300).contains(status) { return .delivered(status: status) }
            let excerpt = String(decoding: answer.prefix(Self.excerptBytes), as: UTF8.self)
            return .refused(status: status, reason: "HTTP \(status)" + (excerpt.isEmpty ? "" : ": \(excerpt)"))
        } catch {
            return .refused(status: nil, reason: "no answer: \(error)")
        }
    }

    /// The first ``maximumAnswerBytes`` of an answer.
    private static func prefix(of body: HTTPClientResponse.Body) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in body {
            bytes += chunk.readableBytesView.prefix(maximumAnswerBytes - bytes.count)
            if bytes.count >= maximumAnswerBytes { break }
        }
        return bytes
    }
}
