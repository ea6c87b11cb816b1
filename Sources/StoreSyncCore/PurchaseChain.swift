public import Foundation

/// The records of one purchase: every transaction sharing an `originalTransactionId`.
///
/// This is a purchase's identity across restores, renewals and devices: a restore on another
/// device that yields a new `transactionId` with the same original id is the same purchase,
/// never a second one.
public struct PurchaseChain: Sendable, Hashable {
    /// The chain's identity.
    public var originalTransactionId: String
    /// The chain's records, ordered by the UTF-8 bytes of `transactionId`.
    public var records: [TransactionRecord]

    /// Creates a chain.
    ///
    /// - Parameters:
    ///   - originalTransactionId: The purchase's original transaction id.
    ///   - records: Its records.
    public init(originalTransactionId: String, records: [TransactionRecord]) {
        self.originalTransactionId = originalTransactionId
        self.records = records
    }

    /// The records backed by verified evidence; only these can grant.
    public var verifiedRecords: [TransactionRecord] { records.filter { $0.evidence.grants } }

    /// Whether only unverified claims mention this purchase.
    public var isClaimOnly: Bool { !records.contains { $0.evidence.grants } }

    /// Whether Apple revoked any verified record of the purchase (a refund voids it all).
    public var isRevoked: Bool { records.contains { $0.evidence.grants && $0.isRevoked } }

    /// When the purchase was made: the earliest `originalPurchaseDate` of its verified records
    /// (of all records when there are only claims); `nil` for an empty chain.
    ///
    /// Non-renewing purchases stack in this order.
    public var purchaseDate: Date? {
        let candidates = isClaimOnly ? records : verifiedRecords
        return candidates.map(\.originalPurchaseDate).min()
    }

    /// The newest record: latest purchase date, then latest signed date, then greatest
    /// transaction id; verified records first, claims only when there is nothing else.
    public var latestRecord: TransactionRecord? {
        let candidates = isClaimOnly ? records : verifiedRecords
        return candidates.max { TransactionRecord.isNewer($1, than: $0) }
    }

    /// The distinct product ids the chain's records name, in UTF-8 byte order.
    public var productIds: [String] {
        let unique = Set(records.map { UTF8Key($0.productId) })
        return unique.map(\.string).sorted { $0.compareUTF8($1) < 0 }
    }
}
