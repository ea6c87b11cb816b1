/// What a ``StoreSyncClient/flush()`` did with the outbox.
public struct FlushOutcome: Sendable, Hashable {
    /// Uploads the server acknowledged.
    public var uploaded: Int
    /// Uploads the server refused for good, now in ``StoreSyncClient/rejectedUploads``.
    public var rejected: Int
    /// Uploads still waiting (failed again, or not attempted after the server was unreachable).
    public var pending: Int

    /// Creates a flush outcome.
    ///
    /// - Parameters:
    ///   - uploaded: Acknowledged uploads.
    ///   - rejected: Refused uploads.
    ///   - pending: Uploads still waiting.
    public init(uploaded: Int = 0, rejected: Int = 0, pending: Int = 0) {
        self.uploaded = uploaded
        self.rejected = rejected
        self.pending = pending
    }
}
