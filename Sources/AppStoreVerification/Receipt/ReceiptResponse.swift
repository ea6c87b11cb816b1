/// The parts of Apple's verifyReceipt answer that StoreSync reads.
struct ReceiptResponse: Decodable, Sendable {
    struct Receipt: Decodable, Sendable {
        var bundleId: String?
        var inApp: [ReceiptEntry]?
        /// When Apple made this copy of the receipt (milliseconds since 1970): the moment its
        /// `in_app` entries describe.
        var creationDateMs: String?

        enum CodingKeys: String, CodingKey {
            case bundleId = "bundle_id"
            case inApp = "in_app"
            case creationDateMs = "receipt_creation_date_ms"
        }
    }

    var status: ReceiptStatus
    var environment: String?
    var receipt: Receipt?
    var latestReceiptInfo: [ReceiptEntry]?
    var isRetryable: Bool?

    enum CodingKeys: String, CodingKey {
        case status, environment, receipt
        case latestReceiptInfo = "latest_receipt_info"
        case isRetryable = "is-retryable"
    }
}

/// The body POSTed to verifyReceipt.
struct ReceiptRequest: Encodable, Sendable {
    var receiptData: String
    var password: String?
    var excludeOldTransactions: Bool

    enum CodingKeys: String, CodingKey {
        case receiptData = "receipt-data"
        case password
        case excludeOldTransactions = "exclude-old-transactions"
    }
}
