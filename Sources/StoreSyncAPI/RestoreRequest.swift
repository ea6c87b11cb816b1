public import StoreSyncCore

/// The body of `POST /v1/restore`: the device's ledger, legacy flags and app receipt.
public struct RestoreRequest: Sendable, Hashable, Codable {
    /// The cached transactions, with `signedTransaction` when the device has it, and signed
    /// transactions sent alone.
    public var entries: [RestoreEntry]
    /// Legacy `UserDefaults` flags, product id → owned.
    public var legacyFlags: [String: Bool]?
    /// A base64 app receipt (StoreKit 1 apps), whose in-app purchases join the restore.
    public var receipt: String?
    /// Whether the user asked for this restore; only then may a purchase move between accounts.
    public var userInitiated: Bool?
    /// Answer what would happen without changing anything.
    public var dryRun: Bool?

    /// Creates a restore request of any entries: cached records, and signed transactions alone.
    ///
    /// - Parameters:
    ///   - entries: The entries.
    ///   - legacyFlags: Legacy flags by product id.
    ///   - receipt: A base64 app receipt.
    ///   - userInitiated: Whether the user asked for it.
    ///   - dryRun: Whether to only preview.
    public init(
        entries: some Sequence<RestoreEntry>,
        legacyFlags: [String: Bool]? = nil,
        receipt: String? = nil,
        userInitiated: Bool? = nil,
        dryRun: Bool? = nil
    ) {
        self.entries = Array(entries)
        self.legacyFlags = legacyFlags
        self.receipt = receipt
        self.userInitiated = userInitiated
        self.dryRun = dryRun
    }

    /// Creates a restore request of cached records.
    ///
    /// - Parameters:
    ///   - entries: The cached transactions.
    ///   - legacyFlags: Legacy flags by product id.
    ///   - receipt: A base64 app receipt.
    ///   - userInitiated: Whether the user asked for it.
    ///   - dryRun: Whether to only preview.
    public init(
        entries: [TransactionRecord],
        legacyFlags: [String: Bool]? = nil,
        receipt: String? = nil,
        userInitiated: Bool? = nil,
        dryRun: Bool? = nil
    ) {
        self.init(
            entries: entries.lazy.map(RestoreEntry.record), legacyFlags: legacyFlags, receipt: receipt,
            userInitiated: userInitiated, dryRun: dryRun)
    }

    /// The wire names, which StoreSyncWire's fast reader derives its own from.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case entries, legacyFlags, receipt, userInitiated, dryRun
    }
}
