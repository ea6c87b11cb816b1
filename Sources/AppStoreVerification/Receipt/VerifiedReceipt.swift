public import StoreSyncCore

/// A legacy app receipt that Apple's verifyReceipt confirmed.
public struct VerifiedReceipt: Sendable, Hashable {
    /// The environment that answered (and that the receipt belongs to).
    public var environment: AppStoreEnvironment
    /// The receipt's bundle id (the configured one).
    public var bundleId: String
    /// One record per transaction, evidence `receipt(verifiedAt:)`; `latest_receipt_info`
    /// wins over `in_app` for the same transaction id. A `latest_receipt_info` record's
    /// `signedDate` is the check's time, an `in_app` record's when the receipt was made.
    public var records: [TransactionRecord]
    /// Apple's status: ``ReceiptStatus/valid`` or ``ReceiptStatus/subscriptionExpired``.
    public var status: ReceiptStatus
    /// Every entry as Apple sent it, one per transaction id.
    public var entries: [ReceiptEntry]
    /// Products whose type neither the configuration nor the entry tells; their records are
    /// of type ``StoreSyncCore/ProductType/unstated`` (kept, granting nothing until a catalog
    /// defines the product).
    public var unclassifiedProductIds: [String]

    /// Assembles a verified receipt.
    ///
    /// - Parameters:
    ///   - environment: The environment.
    ///   - bundleId: The bundle id.
    ///   - records: The records.
    ///   - status: Apple's status.
    ///   - entries: Apple's entries.
    ///   - unclassifiedProductIds: Products of unknown type.
    public init(
        environment: AppStoreEnvironment,
        bundleId: String,
        records: [TransactionRecord],
        status: ReceiptStatus,
        entries: [ReceiptEntry] = [],
        unclassifiedProductIds: [String] = []
    ) {
        self.environment = environment
        self.bundleId = bundleId
        self.records = records
        self.status = status
        self.entries = entries
        self.unclassifiedProductIds = unclassifiedProductIds
    }
}
