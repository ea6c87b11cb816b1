public import Foundation

/// An upload the StoreSync server refused for good — its signed data failed verification
/// (`invalid-signed-data`), the server does not take its App Store environment
/// (`environment-refused`), or another account owns the purchase — removed from the outbox with
/// the reason, so the app can tell the user or its support team. Other refusals, such as a
/// captive portal's 403, leave the upload queued.
///
/// There is one per transaction: when the same transaction is refused again (StoreKit delivers
/// one it vouches for at every launch until it is finished), the newest refusal replaces it.
public struct RejectedUpload: Sendable, Hashable, Codable {
    /// The refused transaction.
    public var transactionId: String
    /// Its purchase.
    public var originalTransactionId: String
    /// Its product.
    public var productId: String
    /// The HTTP status.
    public var status: Int
    /// The problem type URI, e.g. `https://storesync.dev/errors/owned-by-other-account`.
    public var problemType: String
    /// The server's explanation.
    public var reason: String
    /// When the server last refused it.
    public var rejectedAt: Date

    /// Creates a rejected upload.
    ///
    /// - Parameters:
    ///   - transactionId: The transaction.
    ///   - originalTransactionId: Its purchase.
    ///   - productId: Its product.
    ///   - status: The HTTP status.
    ///   - problemType: The problem type URI.
    ///   - reason: The explanation.
    ///   - rejectedAt: When.
    public init(
        transactionId: String, originalTransactionId: String, productId: String, status: Int, problemType: String,
        reason: String, rejectedAt: Date
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.status = status
        self.problemType = problemType
        self.reason = reason
        self.rejectedAt = rejectedAt
    }
}
