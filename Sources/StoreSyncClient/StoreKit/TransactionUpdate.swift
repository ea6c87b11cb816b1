/// A transaction StoreKit delivered outside a purchase call, and what
/// ``PurchaseCoordinator`` did with it: an Ask to Buy approval, a renewal, a refund, a
/// purchase made on another device, or an unfinished transaction delivered again at launch.
public struct TransactionUpdate: Sendable {
    /// The transaction's id, when its JWS could be read.
    public var transactionId: String?
    /// Its product, when its JWS could be read.
    public var productId: String?
    /// How recording it went.
    public var result: Result<RecordOutcome, StoreSyncClientError>
    /// Whether it was finished; an unfinished one is delivered again at the next launch.
    public var isFinished: Bool
    /// The account's entitlements afterwards.
    public var entitlements: EntitlementStatus

    /// Creates an update.
    ///
    /// - Parameters:
    ///   - transactionId: The transaction id.
    ///   - productId: The product id.
    ///   - result: The recording's outcome or error.
    ///   - isFinished: Whether it was finished.
    ///   - entitlements: The entitlements afterwards.
    public init(
        transactionId: String?, productId: String?, result: Result<RecordOutcome, StoreSyncClientError>, isFinished: Bool,
        entitlements: EntitlementStatus
    ) {
        self.transactionId = transactionId
        self.productId = productId
        self.result = result
        self.isFinished = isFinished
        self.entitlements = entitlements
    }
}
