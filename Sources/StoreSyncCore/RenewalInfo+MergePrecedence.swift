extension RenewalInfo {
    /// The version of one chain's renewal info that the ledger keeps when it meets two.
    ///
    /// The later ``signedDate`` wins; at the same millisecond the copy carrying
    /// ``signedRenewalInfo`` wins, then a fixed total order over every other field, so the
    /// choice never depends on argument order.
    ///
    /// - Parameters:
    ///   - a: One version.
    ///   - b: Another version, normally of the same `originalTransactionId`.
    /// - Returns: The version the merge keeps.
    public static func preferred(_ a: Self, _ b: Self) -> Self {
        mergePrecedence(a, b) >= 0 ? a : b
    }

    /// Whether the merge keeps `candidate` rather than `incumbent`.
    ///
    /// - Parameters:
    ///   - candidate: The arriving version.
    ///   - incumbent: The version already held.
    /// - Returns: `true` when `candidate` ranks strictly higher.
    public static func isPreferred(_ candidate: Self, over incumbent: Self) -> Bool {
        mergePrecedence(candidate, incumbent) > 0
    }

    static func mergePrecedence(_ a: Self, _ b: Self) -> Int {
        var order = FieldOrder.compare(a.signedDate, b.signedDate)
        if order != 0 { return order }
        order = FieldOrder.compare(a.signedRenewalInfo != nil, b.signedRenewalInfo != nil)
        if order != 0 { return order }
        order = FieldOrder.compare(a.gracePeriodExpiresDate, b.gracePeriodExpiresDate)
        if order != 0 { return order }
        order = FieldOrder.compare(a.isInBillingRetryPeriod, b.isInBillingRetryPeriod)
        if order != 0 { return order }
        order = FieldOrder.compare(a.autoRenewStatus, b.autoRenewStatus)
        if order != 0 { return order }
        order = FieldOrder.compare(a.originalTransactionId, b.originalTransactionId)
        if order != 0 { return order }
        order = FieldOrder.compare(a.autoRenewProductId, b.autoRenewProductId)
        if order != 0 { return order }
        order = FieldOrder.compare(a.productId, b.productId)
        if order != 0 { return order }
        order = FieldOrder.compare(a.expirationIntent, b.expirationIntent)
        if order != 0 { return order }
        order = FieldOrder.compare(a.environment, b.environment)
        if order != 0 { return order }
        return FieldOrder.compare(a.signedRenewalInfo, b.signedRenewalInfo)
    }
}
