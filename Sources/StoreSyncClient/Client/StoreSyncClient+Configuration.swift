public import Foundation

extension StoreSyncClient {
    /// Where the server is, the key its snapshots are signed with, and how uploads are retried.
    public struct Configuration: Sendable, Hashable {
        /// The server's base URL, e.g. `https://sync.example.com`.
        public var baseURL: URL
        /// Base64 of the server's raw 32-byte Ed25519 public key (`GET /v1/signing-key`, or
        /// `storesync keygen`'s output): pinned in the app, so only snapshots that key signed
        /// are trusted. A key that does not decode makes every snapshot untrusted.
        public var serverPublicKey: String
        /// How failed uploads back off.
        public var retryPolicy: RetryPolicy
        /// The share of a snapshot's offline validity during which ``StoreSyncClient/refresh()``
        /// asks with `If-None-Match`; past it, an unconditional request renews `validUntil`.
        public var conditionalRefreshWindow: Double

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - baseURL: The server's base URL.
        ///   - serverPublicKey: Base64 of the server's Ed25519 public key.
        ///   - retryPolicy: The outbox's backoff; 2 s doubling up to 10 min by default.
        ///   - conditionalRefreshWindow: The share of validity for conditional refreshes, 0...1.
        public init(
            baseURL: URL, serverPublicKey: String, retryPolicy: RetryPolicy = RetryPolicy(),
            conditionalRefreshWindow: Double = 0.5
        ) {
            self.baseURL = baseURL
            self.serverPublicKey = serverPublicKey
            self.retryPolicy = retryPolicy
            self.conditionalRefreshWindow = min(1, max(0, conditionalRefreshWindow))
        }
    }
}
