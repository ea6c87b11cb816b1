public import Foundation

/// An upload the server refused for good (a 4xx other than 401, 408 and 429), removed from the
/// outbox with the reason, so the app can tell the user or its support team.
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
    /// When the server refused it.
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
