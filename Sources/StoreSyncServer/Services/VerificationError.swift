/// Why signed data a client or Apple sent cannot be taken. Nothing was changed.
enum VerificationError: Error, Equatable {
    /// The signed data in `field` did not verify; `detail` says what was refused and why.
    case refused(field: String, detail: String)
    /// The signed data in `field` names an App Store environment this server does not take
    /// (``EnvironmentRule``), whether or not its signature verifies: no setting of trusted roots
    /// or bundle makes this server take it. `detail` names the environments it takes.
    case environmentRefused(field: String, detail: String)
    /// Apple's verifyReceipt refused the receipt; `detail` gives its reason.
    case receiptRejected(detail: String)
    /// Apple's verifyReceipt did not answer; the same request may succeed later.
    case receiptVerifierUnavailable
}
