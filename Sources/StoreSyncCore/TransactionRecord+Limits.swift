extension TransactionRecord {
    /// The longest transaction id and original transaction id kept, in Unicode code points.
    public static let maximumIdLength = 64
    /// The longest product id kept, in Unicode code points.
    public static let maximumProductIdLength = 255
    /// The largest quantity and revocation reason kept: a 32-bit integer.
    public static let maximumInteger = Int(Int32.max)

    /// Which field of this version StoreSync cannot keep, and why; `nil` when every field fits.
    ///
    /// Apple's ids are short digit strings and its numbers small, but signed data is checked,
    /// not assumed: a version that cannot be stored is refused as malformed, with its field
    /// named, rather than failing deep in storage. Lengths count Unicode code points, the unit
    /// PostgreSQL's `length()` counts.
    public var unkeepableField: String? {
        for (name, id) in [("transactionId", transactionId), ("originalTransactionId", originalTransactionId)]
        where id.unicodeScalars.count > Self.maximumIdLength {
            return "\(name) is longer than \(Self.maximumIdLength) characters"
        }
        if productId.unicodeScalars.count > Self.maximumProductIdLength {
            return "productId is longer than \(Self.maximumProductIdLength) characters"
        }
        if quantity > Self.maximumInteger { return "quantity is larger than \(Self.maximumInteger)" }
        if let reason = revocationReason?.rawValue, !(0...Self.maximumInteger).contains(reason) {
            return "revocationReason is outside 0...\(Self.maximumInteger)"
        }
        return nil
    }
}
