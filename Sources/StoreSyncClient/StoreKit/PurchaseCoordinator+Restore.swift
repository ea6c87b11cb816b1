extension PurchaseCoordinator {
    /// What the app's **Restore Purchases** button runs: brings StoreKit up to date with the
    /// App Store (the user may be asked to authenticate), adds every transaction StoreKit
    /// lists as current to the account's ledger, then restores with `userInitiated: true` —
    /// the one kind of restore that may move a purchase from another account, as the
    /// server's transfer policy allows.
    ///
    /// - Returns: The verdicts and the verified snapshot.
    /// - Throws: ``StoreSyncClientError/notSignedIn`` before anything is asked of the user;
    ///   StoreKit's error when the sync fails or the user cancels it (nothing restored); the
    ///   restore's errors.
    public func restorePurchases() async throws -> RestoreOutcome {
        guard await client.session != nil else { throw StoreSyncClientError.notSignedIn }
        try await source.sync()
        let current = await source.currentEntitlements()
        try await client.keepInLedger(current.map(\.signedTransaction))
        return try await client.restore(userInitiated: true)
    }
}
