import StoreSyncAPI

extension Problem {
    /// Whether the StoreSync server refused a signed transaction or receipt for good: it failed
    /// verification (signature, chain, bundle), names an environment the server does not take,
    /// or Apple rejected the receipt.
    var refusesSignedData: Bool {
        problemType == .invalidSignedData || problemType == .receiptRejected || refusesEnvironment
    }

    /// Whether the StoreSync server refused a signed transaction for the App Store environment
    /// it names (`environment-refused`): a policy no later delivery of the same transaction can
    /// change, unlike `invalid-signed-data`, which the server's or app's settings may cause.
    var refusesEnvironment: Bool { problemType == .environmentRefused }
}
