public import StoreSyncAPI

/// What ``StoreSyncClient/record(signedTransaction:)`` did with a purchase. Every case means
/// the transaction is durably kept: the app may now call `finish()` on it.
public enum RecordOutcome: Sendable, Hashable {
    /// The server verified and stored it (verdict `accepted`, or `known` for a re-delivery).
    case acknowledged(Verdict)
    /// The upload failed for now (offline, server trouble, or an answer that was not the
    /// StoreSync server's, such as a captive portal's page); it waits in the outbox and goes
    /// up on its own once ``StoreSyncClient/start(connectivity:)`` ran (when the network comes
    /// back, on its backoff schedule), and at later calls or ``StoreSyncClient/flush()``.
    ///
    /// It is queued too when the server has ended the session (signed out from another
    /// device, a password changed elsewhere, idle expiry): the client then signed out
    /// (``StoreSyncClient/session`` is `nil`, see ``StoreSyncClientError/unauthorized``), and
    /// the purchase goes up as soon as the account signs in again. Check the session after a
    /// queued purchase, and ask the user to sign in when there is none.
    case queued
    /// Nobody is signed in: it is kept on this device and offered to the account at sign-in.
    case storedUntilSignIn
}
