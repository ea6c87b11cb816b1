import StoreSyncCore

extension TransactionRecord {
    /// Whether this version states nothing `current` does not: the same facts and the same kind
    /// of evidence, only signed again.
    ///
    /// Apple signs every transaction again each time the App Store Server API or a notification
    /// returns it. Such a version would win the ledger's merge (a later `signedDate`) without
    /// changing what anyone is entitled to, so it is not stored and bumps no account version.
    ///
    /// - Parameter current: The version the holder's ledger holds now, if any.
    func restates(_ current: TransactionRecord?) -> Bool {
        guard let current, evidence.kind == current.evidence.kind else { return false }
        var signedAgain = self
        signedAgain.signedDate = current.signedDate
        signedAgain.signedText = current.signedText
        signedAgain.evidence = current.evidence
        return signedAgain == current
    }
}

extension RenewalInfo {
    /// Whether this renewal info states nothing `current` does not, only signed again.
    ///
    /// - Parameter current: The renewal info the holder has now, if any.
    func restates(_ current: RenewalInfo?) -> Bool {
        guard let current else { return false }
        var signedAgain = self
        signedAgain.signedDate = current.signedDate
        signedAgain.signedRenewalInfo = current.signedRenewalInfo
        return signedAgain == current
    }
}
