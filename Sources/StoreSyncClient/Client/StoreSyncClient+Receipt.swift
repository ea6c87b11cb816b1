public import Foundation

extension StoreSyncClient {
    /// Restores purchases for a StoreKit 1 app: sends the app receipt along with the device's
    /// ledger and legacy flags, and applies the answer like ``restore(userInitiated:dryRun:)``.
    ///
    /// The server verifies the receipt with Apple (production first, then the sandbox) and
    /// stores its in-app purchases with the account; they come back in the snapshot.
    ///
    /// ```swift
    /// if let url = Bundle.main.appStoreReceiptURL, let receipt = try? Data(contentsOf: url) {
    ///     let outcome = try await client.restore(receipt: receipt, userInitiated: true)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - receipt: The app receipt's bytes, as read from `Bundle.main.appStoreReceiptURL`;
    ///     sent base64-encoded.
    ///   - userInitiated: `true` only when the user tapped Restore Purchases: only then may a
    ///     purchase move from another account. `false` by default.
    ///   - dryRun: Ask what would happen without changing anything.
    /// - Returns: The verdicts, the verified snapshot, and what happened to the cache.
    /// - Throws: What ``restore(userInitiated:dryRun:)`` throws;
    ///   ``StoreSyncClientError/invalidInput(_:)`` when Apple does not vouch for the receipt.
    public func restore(receipt: Data, userInitiated: Bool = false, dryRun: Bool = false) async throws -> RestoreOutcome {
        try await restore(receipt: receipt.base64EncodedString(), userInitiated: userInitiated, dryRun: dryRun)
    }
}
