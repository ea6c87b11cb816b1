public import StoreSyncAPI
public import StoreSyncCore

/// What a restore found.
public struct RestoreOutcome: Sendable, Hashable {
    /// The server's verdict on each transaction and legacy flag the device presented.
    public var verdicts: [Verdict]
    /// The verified snapshot the server answered with; for a dry run, an unsigned preview of
    /// what the account would look like: not stored, not cached, and no proof of anything.
    public var snapshot: Snapshot
    /// Whether this was a dry run: nothing changed, on the server or on the device.
    public var isDryRun: Bool
    /// Legacy flags the server confirmed with a verified purchase.
    public var confirmedLegacyProducts: [String]
    /// Legacy flags nothing verified backs; they were dropped and grant nothing.
    public var droppedLegacyProducts: [String]
    /// Cached transactions the server rejected, removed from the device.
    public var droppedTransactionIds: [String]

    /// Creates a restore outcome.
    ///
    /// - Parameters:
    ///   - verdicts: The verdicts.
    ///   - snapshot: The verified snapshot.
    ///   - isDryRun: Whether nothing changed.
    ///   - confirmedLegacyProducts: Confirmed legacy flags.
    ///   - droppedLegacyProducts: Dropped legacy flags.
    ///   - droppedTransactionIds: Removed cached transactions.
    public init(
        verdicts: [Verdict], snapshot: Snapshot, isDryRun: Bool, confirmedLegacyProducts: [String] = [],
        droppedLegacyProducts: [String] = [], droppedTransactionIds: [String] = []
    ) {
        self.verdicts = verdicts
        self.snapshot = snapshot
        self.isDryRun = isDryRun
        self.confirmedLegacyProducts = confirmedLegacyProducts
        self.droppedLegacyProducts = droppedLegacyProducts
        self.droppedTransactionIds = droppedTransactionIds
    }

    /// The entitlements the snapshot grants.
    public var entitlements: [Entitlement] { snapshot.entitlements }

    /// The verdicts that would move or moved a purchase from another account.
    public var transfers: [Verdict] { verdicts.filter { $0.verdict == .transferred } }
}
