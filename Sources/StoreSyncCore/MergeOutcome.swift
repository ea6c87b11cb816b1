/// What merging one version into a ledger did.
public enum MergeOutcome: Sendable, Hashable {
    /// The ledger did not know the key; the version was added.
    case inserted
    /// The ledger held an older or weaker version; the arriving one replaced it.
    case replaced
    /// The ledger's version won or was the same; nothing changed.
    case unchanged
}
