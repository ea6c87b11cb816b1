import StoreSyncAPI

extension Problem {
    /// Whether the StoreSync server refused a signed transaction or receipt for good: it failed
    /// verification (signature, chain, bundle, environment) or Apple rejected the receipt.
    var refusesSignedData: Bool {
        problemType == .invalidSignedData || problemType == .receiptRejected
    }
}
