import AppStorePayloads
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import StoreSyncCore

extension ReceiptVerifier {
    /// One endpoint's answer, retried while the failure is temporary and `deadline` leaves
    /// time: each attempt gets at most what is left of it, and no retry starts after it.
    func postWithRetries(
        _ body: Data, to environment: AppStoreEnvironment, until deadline: ContinuousClock.Instant
    ) async throws(ReceiptVerificationError) -> ReceiptResponse {
        let url = environment == .sandbox ? configuration.sandboxURL : configuration.productionURL
        var attempt = 1
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw .unreachable("no answer within \(configuration.totalTimeout) in all")
            }
            let outcome: Result<ReceiptResponse, ReceiptVerificationError>
            do {
                outcome = .success(try await post(body, to: url, timeout: min(configuration.timeout, remaining)))
            } catch {
                outcome = .failure(error)
            }
            let retryable: Bool
            switch outcome {
            case .success(let response):
                // Apple's `is-retryable` flag is honoured for failures, never for the
                // environment redirects, which are answered by switching, not repeating.
                let redirect = response.status == .sandboxReceipt || response.status == .productionReceipt
                retryable =
                    response.status.isRetryable
                    || (response.isRetryable == true && !response.status.isValid && !redirect)
                logger.debug(
                    "verifyReceipt answered",
                    metadata: [
                        "appstore.receipt.endpoint": "\(environment.appleName)",
                        "appstore.receipt.status": "\(response.status.rawValue)",
                        "appstore.receipt.attempt": "\(attempt)",
                    ])
            case .failure(let error):
                if case .unreachable = error { retryable = true } else { retryable = false }
                logger.debug(
                    "verifyReceipt failed",
                    metadata: [
                        "appstore.receipt.endpoint": "\(environment.appleName)",
                        "appstore.receipt.error": "\(error)",
                        "appstore.receipt.attempt": "\(attempt)",
                    ])
            }
            let wait = backoff(before: attempt + 1)
            guard retryable, attempt < configuration.maxAttempts, ContinuousClock.now.advanced(by: wait) < deadline else {
                return try outcome.get()
            }
            try await sleep(wait)
            attempt += 1
        }
    }

    /// `retryBackoff × 2^(attempt − 2)`: the wait before the given attempt.
    private func backoff(before attempt: Int) -> Duration {
        configuration.retryBackoff * (1 << min(attempt - 2, 10))
    }

    private func sleep(_ wait: Duration) async throws(ReceiptVerificationError) {
        do {
            try await Task.sleep(for: wait)
        } catch {
            throw .unreachable("cancelled while waiting to retry")
        }
    }

    /// One POST, bounded by `timeout` and the response size limit.
    private func post(_ body: Data, to url: URL, timeout: Duration) async throws(ReceiptVerificationError)
        -> ReceiptResponse
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        let bytes: ByteBuffer
        do {
            let response = try await httpClient.execute(request, timeout: timeout.timeAmount, logger: logger)
            guard response.status == .ok else {
                throw ReceiptVerificationError.unreachable("HTTP status \(response.status.code)")
            }
            bytes = try await response.body.collect(upTo: Self.maximumResponseLength)
        } catch let error as ReceiptVerificationError {
            throw error
        } catch is NIOTooManyBytesError {
            throw .malformedResponse("the answer is larger than \(Self.maximumResponseLength) bytes")
        } catch {
            throw .unreachable(String(describing: error))
        }
        do {
            return try JSONDecoder().decode(ReceiptResponse.self, from: Data(bytes.readableBytesView))
        } catch let error as DecodingError {
            throw .malformedResponse(error.fieldDescription)
        } catch {
            throw .malformedResponse("not valid JSON")
        }
    }
}

extension Duration {
    /// The same span as NIO's `TimeAmount`, clamped to at least one millisecond.
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow else { return .nanoseconds(.max) }
        return .nanoseconds(max(1_000_000, nanoseconds.partialValue + attoseconds / 1_000_000_000))
    }
}
