/// The answer to an upload or a restore: a verdict per presented item and the new snapshot.
public struct SyncResponse: Sendable, Hashable, Codable {
    /// One verdict per presented transaction or legacy flag, in request order.
    public var verdicts: [Verdict]
    /// The account's signed snapshot after the change.
    public var snapshot: Snapshot

    /// Creates a sync response.
    ///
    /// - Parameters:
    ///   - verdicts: One per presented transaction or legacy flag.
    ///   - snapshot: The account's signed snapshot after the change.
    public init(verdicts: [Verdict], snapshot: Snapshot) {
        self.verdicts = verdicts
        self.snapshot = snapshot
    }

    /// The wire names, which StoreSyncWire's writer derives its own from.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case verdicts, snapshot
    }
}
