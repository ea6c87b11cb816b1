import Crypto
import Foundation
import StoreSyncCore

/// One upload waiting in the outbox: a signed transaction the server has not acknowledged yet.
///
/// The id is the SHA-256 of the JWS, so the same JWS is never queued twice; a newer version of
/// the same transaction (another JWS) is a separate upload, since it may carry a refund.
struct OutboxEntry: Codable, Sendable, Hashable {
    var id: String
    var signedTransaction: String
    var transactionId: String
    var originalTransactionId: String
    var productId: String
    var enqueuedAt: Date
    /// Failed attempts so far; decides the next delay.
    var attempts: Int
    var nextAttemptAt: Date
    /// Why the last attempt failed, for diagnostics.
    var lastFailure: String?

    init(record: TransactionRecord, signedTransaction: String, at now: Date) {
        id = Self.id(of: signedTransaction)
        self.signedTransaction = signedTransaction
        transactionId = record.transactionId
        originalTransactionId = record.originalTransactionId
        productId = record.productId
        enqueuedAt = now
        attempts = 0
        nextAttemptAt = now
    }

    static func id(of signedTransaction: String) -> String {
        SHA256.hash(data: Data(signedTransaction.utf8)).hexString
    }

    func isDue(at now: Date) -> Bool { nextAttemptAt <= now }
}
