public import StoreSyncCore

/// One request the verifyReceipt stand-in received.
public struct AppStoreReceiptStandInRequest: Sendable, Hashable {
    /// Which endpoint was asked: `production` or `sandbox`.
    public var endpoint: AppStoreEnvironment
    /// The posted `receipt-data`.
    public var receiptData: String?
    /// The posted `password` (shared secret).
    public var password: String?
    /// The posted `exclude-old-transactions`.
    public var excludeOldTransactions: Bool?

    /// Describes a request.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint asked.
    ///   - receiptData: The receipt.
    ///   - password: The shared secret.
    ///   - excludeOldTransactions: The flag.
    public init(endpoint: AppStoreEnvironment, receiptData: String?, password: String?, excludeOldTransactions: Bool?) {
        self.endpoint = endpoint
        self.receiptData = receiptData
        self.password = password
        self.excludeOldTransactions = excludeOldTransactions
    }
}
