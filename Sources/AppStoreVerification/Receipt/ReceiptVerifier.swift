public import AsyncHTTPClient
public import Foundation
public import Logging
import StoreSyncCore

/// A client of Apple's legacy verifyReceipt endpoint (DESIGN.md §5).
///
/// It posts to production first (unless configured otherwise); a 21007 sends it to sandbox and a 21008 back to
/// production, once. Temporary failures (HTTP errors, timeouts, retryable statuses) are
/// retried with doubling backoff up to ``ReceiptVerifierConfiguration/maxAttempts`` per
/// endpoint, all within ``ReceiptVerifierConfiguration/totalTimeout``. Every answer ends in a
/// ``VerifiedReceipt`` or a typed error.
public struct ReceiptVerifier: Sendable {
    /// Receipts larger than this are refused unsent; real ones are tens of KiB.
    static let maximumReceiptLength = 4 * 1024 * 1024
    /// Answers larger than this are refused; Apple's stay well below.
    static let maximumResponseLength = 8 * 1024 * 1024

    /// Where and how to ask Apple.
    public let configuration: ReceiptVerifierConfiguration
    let httpClient: HTTPClient
    let logger: Logger

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: Endpoints, secret, timeout and retries.
    ///   - httpClient: The HTTP client to send with; the caller owns its lifecycle.
    ///   - logger: Where attempts and outcomes are logged (debug).
    public init(configuration: ReceiptVerifierConfiguration, httpClient: HTTPClient, logger: Logger) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.logger = logger
    }

    /// Asks Apple to verify a base64 app receipt and maps its entries to records.
    ///
    /// - Parameters:
    ///   - receiptData: The base64 app receipt, as the device read it.
    ///   - now: The time of the check: the records' `verifiedAt`, and the `signedDate` of
    ///     those from `latest_receipt_info` (`in_app` entries are dated when the receipt was made).
    /// - Returns: The verified receipt with one record per transaction.
    /// - Throws: ``ReceiptVerificationError``: `invalidReceiptData` before anything is sent,
    ///   `rejected` for Apple's final status, `unreachable`, `malformedResponse`, `bundleMismatch`.
    public func verify(receiptData: String, now: Date) async throws(ReceiptVerificationError) -> VerifiedReceipt {
        let body = try requestBody(receiptData: receiptData)
        let deadline = ContinuousClock.now.advanced(by: configuration.totalTimeout)
        var endpoint = configuration.firstEnvironment
        var switchedEnvironment = false
        while true {
            let response = try await postWithRetries(body, to: endpoint, until: deadline)
            switch response.status {
            case .sandboxReceipt where endpoint == .production && !switchedEnvironment,
                .productionReceipt where endpoint == .sandbox && !switchedEnvironment:
                endpoint = endpoint == .production ? .sandbox : .production
                switchedEnvironment = true
                logger.debug(
                    "verifyReceipt: switching environment",
                    metadata: ["appstore.receipt.status": "\(response.status.rawValue)"])
            case let status where status.isValid:
                return try verifiedReceipt(from: response, answeredBy: endpoint, now: now)
            case let status:
                throw .rejected(status)
            }
        }
    }

    private func requestBody(receiptData: String) throws(ReceiptVerificationError) -> Data {
        guard !receiptData.isEmpty else { throw .invalidReceiptData("the receipt is empty") }
        guard receiptData.utf8.count <= Self.maximumReceiptLength else {
            throw .invalidReceiptData("the receipt is larger than \(Self.maximumReceiptLength) bytes")
        }
        guard Data(base64Encoded: receiptData) != nil else { throw .invalidReceiptData("the receipt is not base64") }
        let request = ReceiptRequest(
            receiptData: receiptData,
            password: configuration.sharedSecret,
            excludeOldTransactions: configuration.excludeOldTransactions)
        guard let body = try? JSONEncoder().encode(request) else {
            throw .invalidReceiptData("the receipt cannot be encoded")
        }
        return body
    }
}
