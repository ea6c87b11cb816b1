import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

extension AppStoreServerAPIClient {
    /// Sends a request, retrying `429`, `5xx` and transport failures, and returns the body of
    /// the first `2xx` answer.
    func send(_ request: AppStoreServerAPIRequest) async throws(AppStoreServerAPIError) -> [UInt8] {
        var attempt = 1
        while true {
            let failure: Failure
            switch await sendOnce(request) {
            case .success(let body): return body
            case .failure(let error): failure = error
            }
            logger.debug(
                "App Store Server API attempt failed",
                metadata: [
                    "appstore.api.endpoint": "\(request.endpoint)",
                    "appstore.api.attempt": "\(attempt)",
                    "appstore.api.error": "\(failure.error)",
                ])
            guard failure.retryable, attempt < configuration.maxAttempts else { throw failure.error }
            let wait = failure.retryAfter ?? backoff(before: attempt + 1)
            guard wait <= configuration.maximumRetryWait else { throw failure.error }
            do {
                try await sleep(wait)
            } catch {
                throw .cancelled
            }
            attempt += 1
        }
    }

    /// `retryBackoff × 2^(attempt − 2)`.
    private func backoff(before attempt: Int) -> Duration {
        configuration.retryBackoff * (1 << min(attempt - 2, 16))
    }

    /// One attempt's failure: the error to report, and whether and when to try again.
    struct Failure: Error {
        var error: AppStoreServerAPIError
        var retryable: Bool
        /// The wait Apple asked for in `Retry-After`.
        var retryAfter: Duration?
    }

    private func sendOnce(_ request: AppStoreServerAPIRequest) async -> Result<[UInt8], Failure> {
        let sentAt = now()
        var http = HTTPClientRequest(url: request.url(under: configuration.baseURL))
        http.method = request.method == .post ? .POST : .GET
        do {
            http.headers.add(name: "Authorization", value: "Bearer \(try tokens.token(now: sentAt).value)")
        } catch {
            return .failure(Failure(error: .invalidArgument("the API token cannot be signed: \(error)"), retryable: false))
        }
        http.headers.add(name: "Accept", value: "application/json")
        http.headers.add(name: "User-Agent", value: "StoreSync")
        if let body = request.body {
            http.headers.add(name: "Content-Type", value: "application/json")
            http.body = .bytes(ByteBuffer(bytes: body))
        }
        let response: HTTPClientResponse
        do {
            response = try await httpClient.execute(http, timeout: configuration.timeout.timeAmount, logger: logger)
        } catch {
            return .failure(Failure(error: .unreachable(String(describing: error)), retryable: true))
        }
        guard (200..<300).contains(response.status.code) else {
            return .failure(await failure(of: response, sentAt: sentAt))
        }
        do {
            return .success(Array((try await response.body.collect(upTo: Self.maximumResponseLength)).readableBytesView))
        } catch is NIOTooManyBytesError {
            let error = AppStoreServerAPIError.malformedResponse(
                "the answer is larger than \(Self.maximumResponseLength) bytes")
            return .failure(Failure(error: error, retryable: false))
        } catch {
            return .failure(Failure(error: .unreachable(String(describing: error)), retryable: true))
        }
    }

    /// Maps a non-`2xx` answer to its typed error, reading Apple's error body when there is one.
    private func failure(of response: HTTPClientResponse, sentAt: Date) async -> Failure {
        let status = Int(response.status.code)
        let body = try? await response.body.collect(upTo: Self.maximumErrorBodyLength)
        let payload =
            body.flatMap { try? JSONDecoder().decode(AppStoreServerAPIErrorPayload.self, from: Data($0.readableBytesView)) }
            ?? AppStoreServerAPIErrorPayload()
        let retryAfter = RetryAfter.wait(response.headers.first(name: "Retry-After"), now: sentAt)
        switch status {
        case 401:
            let error = AppStoreServerAPIError.unauthorized(
                keyId: configuration.keyId, issuerId: configuration.issuerId, bundleId: configuration.bundleId)
            return Failure(error: error, retryable: false)
        case 404:
            return Failure(error: .notFound(payload), retryable: false)
        case 429:
            let until = retryAfter.map { sentAt.addingTimeInterval($0.timeInterval) }
            return Failure(error: .rateLimited(retryAfter: until, payload), retryable: true, retryAfter: retryAfter)
        case 500..<600:
            return Failure(error: .unavailable(status: status, payload), retryable: true, retryAfter: retryAfter)
        default:
            return Failure(error: .rejected(status: status, payload), retryable: false)
        }
    }
}

extension Duration {
    /// The span in seconds, as Foundation counts time.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
