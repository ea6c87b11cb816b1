extension TransactionRecord {
    /// The version of one transaction that the ledger keeps when it meets two: the merge law
    /// in one place.
    ///
    /// A verified version always beats an unverified ``Evidence/claim``: a claim's dates are
    /// the device's word, not Apple's signature, so a claim must never overwrite what Apple
    /// signed (nor make a verified purchase look revoked or expired). A version Apple signed
    /// (a JWS, ``Evidence/carriesSigningDate``) always beats one read from a legacy receipt:
    /// a receipt states no signing date, its ``signedDate`` is only when verifyReceipt
    /// answered or the receipt was made, so an old receipt sent after a refund must not bring
    /// the purchase back.
    /// Otherwise the later ``signedDate`` wins, because Apple signed it after the other (a
    /// renewal, a refund, a refund reversal). Versions signed at the same millisecond go to the
    /// stronger
    /// ``Evidence``, then to the copy that carries ``signedTransaction`` (so the JWS is never
    /// lost), then to a fixed total order over every other field, compared by value and by the
    /// UTF-8 bytes of strings. The order is total, so `preferred(a, b) == preferred(b, a)` for
    /// any two versions, which is what makes the ledger's merge commutative, associative and
    /// idempotent.
    ///
    /// - Parameters:
    ///   - a: One version.
    ///   - b: Another version, normally of the same `transactionId`.
    /// - Returns: The version the merge keeps.
    public static func preferred(_ a: Self, _ b: Self) -> Self {
        mergePrecedence(a, b) >= 0 ? a : b
    }

    /// Whether the merge keeps `candidate` rather than `incumbent`.
    ///
    /// - Parameters:
    ///   - candidate: The arriving version.
    ///   - incumbent: The version already held.
    /// - Returns: `true` when `candidate` ranks strictly higher; `false` when it ranks lower
    ///   or is the same version.
    public static func isPreferred(_ candidate: Self, over incumbent: Self) -> Bool {
        mergePrecedence(candidate, incumbent) > 0
    }

    /// The merge's total order: positive when `a` wins, zero only for identical versions.
    ///
    /// Every stored field takes part, so two versions that rank equal are the same version.
    /// Among conflicting versions signed at the same moment (which honest data never has) the
    /// revoked one and the later expiry rank higher: the conservative choice.
    static func mergePrecedence(_ a: Self, _ b: Self) -> Int {
        var order = FieldOrder.compare(a.evidence.grants, b.evidence.grants)
        if order != 0 { return order }
        order = FieldOrder.compare(a.evidence.carriesSigningDate, b.evidence.carriesSigningDate)
        if order != 0 { return order }
        order = FieldOrder.compare(a.signedDate, b.signedDate)
        if order != 0 { return order }
        order = a.evidence.mergePrecedence(b.evidence)
        if order != 0 { return order }
        order = FieldOrder.compare(a.signedText != nil, b.signedText != nil)
        if order != 0 { return order }
        order = FieldOrder.compare(a.revocationDate, b.revocationDate)
        if order != 0 { return order }
        order = FieldOrder.compare(a.revocationReason, b.revocationReason)
        if order != 0 { return order }
        order = FieldOrder.compare(a.expiresDate, b.expiresDate)
        if order != 0 { return order }
        order = FieldOrder.compare(a.isUpgraded, b.isUpgraded)
        if order != 0 { return order }
        order = FieldOrder.compare(a.transactionId, b.transactionId)
        if order != 0 { return order }
        order = FieldOrder.compare(a.originalTransactionId, b.originalTransactionId)
        if order != 0 { return order }
        order = FieldOrder.compare(a.productId, b.productId)
        if order != 0 { return order }
        order = FieldOrder.compare(a.productType.rawValue, b.productType.rawValue)
        if order != 0 { return order }
        order = FieldOrder.compare(a.purchaseDate, b.purchaseDate)
        if order != 0 { return order }
        order = FieldOrder.compare(a.originalPurchaseDate, b.originalPurchaseDate)
        if order != 0 { return order }
        order = FieldOrder.compare(a.ownershipType, b.ownershipType)
        if order != 0 { return order }
        order = FieldOrder.compare(a.environment, b.environment)
        if order != 0 { return order }
        order = FieldOrder.compare(a.appAccountToken, b.appAccountToken)
        if order != 0 { return order }
        order = FieldOrder.compare(a.quantity, b.quantity)
        if order != 0 { return order }
        order = FieldOrder.compare(a.subscriptionGroupId, b.subscriptionGroupId)
        if order != 0 { return order }
        return FieldOrder.compare(a.signedTransaction, b.signedTransaction)
    }

    /// Whether `a` is a newer transaction of its chain than `b`: later purchase date, then
    /// later signed date, then the greater transaction id (by UTF-8 bytes).
    ///
    /// - Parameters:
    ///   - a: A record.
    ///   - b: Another record of the same chain.
    /// - Returns: Whether `a` comes after `b`.
    public static func isNewer(_ a: Self, than b: Self) -> Bool {
        var order = FieldOrder.compare(a.purchaseDate, b.purchaseDate)
        if order == 0 { order = FieldOrder.compare(a.signedDate, b.signedDate) }
        if order == 0 { order = a.transactionId.compareUTF8(b.transactionId) }
        return order > 0
    }
}

extension Evidence {
    /// Strength first; between two receipts, the one Apple confirmed later; between two
    /// unrecognized kinds, by their names, so the order stays total.
    func mergePrecedence(_ other: Evidence) -> Int {
        let order = FieldOrder.compare(strength, other.strength)
        if order != 0 { return order }
        switch (self, other) {
        case (.receipt(let mine), .receipt(let theirs)): return FieldOrder.compare(mine, theirs)
        case (.unrecognized(let mine), .unrecognized(let theirs)): return FieldOrder.compare(mine, theirs)
        default: return 0
        }
    }
}
