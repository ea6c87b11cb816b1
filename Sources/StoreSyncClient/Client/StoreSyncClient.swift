public import Foundation
import StoreSyncAPI
import StoreSyncCore

/// The library an app links to keep purchases with its own accounts: sign in, record each
/// StoreKit purchase, restore on a new device, and ask "is this user entitled to premium?" —
/// offline too, from the last snapshot the server signed.
///
/// ```swift
/// let client = StoreSyncClient(
///     configuration: .init(baseURL: serverURL, serverPublicKey: pinnedKey),
///     store: FileStore(directory: cacheDirectory))
/// try await client.signIn(email: email, password: password, deviceName: "iPad")
/// for await result in Transaction.updates {
///     if case .verified(let transaction) = result {
///         _ = try await client.record(signedTransaction: result.jwsRepresentation)
///         await transaction.finish()   // only after record returned
///     }
/// }
/// let premium = await client.isEntitled(to: "premium")
/// ```
///
/// The cache is partitioned by account; purchases recorded before sign-in wait in an
/// anonymous partition and are offered to the account at sign-in. Every answer from the server
/// is checked against the session it was asked for: one that arrives after a sign-out or an
/// account switch is dropped, never written into the new account's cache.
public actor StoreSyncClient {
    /// The server, its pinned key and the retry policy.
    public nonisolated let configuration: Configuration

    let cache: any KeyValueStore
    let sessionStore: any KeyValueStore
    let api: ServerAPI
    let verifier: SnapshotVerifier
    let now: @Sendable () -> Date

    var storedSession: StoredSession?
    /// Bumps at every sign-in, sign-up and sign-out: an operation that started under another
    /// generation drops its answer.
    var generation: UInt64 = 0
    /// The last snapshot verified, with the exact bytes it was verified from.
    var snapshotMemo: VerifiedSnapshot?
    /// Outbox entries being uploaded right now, so two calls never upload one entry at once.
    var uploadsInFlight: Set<String> = []
    /// When to offer anonymous purchases again after an offer failed, and how often it failed.
    var claimRetryAt: Date?
    var claimFailures = 0
    /// Cached items found untrustworthy and discarded since this client was created.
    public internal(set) var integrityIssues: [CacheIntegrityIssue] = []

    /// Creates a client and restores the session saved by an earlier run.
    ///
    /// - Parameters:
    ///   - configuration: The server and its pinned public key.
    ///   - store: Where purchases, snapshots and the outbox are cached.
    ///   - sessionStore: Where the session (with its bearer token) is kept; `store` when
    ///     `nil`. On iOS, pass a Keychain-backed store.
    ///   - transport: How requests travel; `URLSession` by default.
    ///   - now: The clock; tests pass their own.
    public init(
        configuration: Configuration,
        store: any KeyValueStore,
        sessionStore: (any KeyValueStore)? = nil,
        transport: any StoreSyncTransport = URLSessionTransport(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.configuration = configuration
        cache = store
        self.sessionStore = sessionStore ?? store
        api = ServerAPI(baseURL: configuration.baseURL, transport: transport)
        verifier = SnapshotVerifier(base64PublicKey: configuration.serverPublicKey)
        self.now = now
        do {
            if let bytes = try self.sessionStore.data(forKey: CacheKeys.session) {
                storedSession = try StoreSyncClient.decoder.decode(StoredSession.self, from: bytes)
            }
        } catch {
            integrityIssues.append(
                CacheIntegrityIssue(key: CacheKeys.session, problem: "the saved session is unreadable: \(error)", detectedAt: now()))
        }
    }

    /// The signed-in account, or `nil`.
    public var session: ClientSession? { storedSession?.publicSession }

    /// Uploads of the signed-in account waiting in the outbox.
    public var pendingUploads: Int {
        guard let ticket = currentTicket() else { return 0 }
        return outbox(in: ticket.partition).count
    }

    /// Uploads of the signed-in account the server refused for good, oldest first.
    public var rejectedUploads: [RejectedUpload] {
        guard let ticket = currentTicket() else { return [] }
        return read([RejectedUpload].self, .rejected, in: ticket.partition) ?? []
    }

    /// Purchases recorded before sign-in that no account has taken yet.
    public var unclaimedPurchases: Int { ledger(in: .anonymous).count }

    /// Legacy flags imported and not yet confirmed or dropped by a restore.
    public var pendingLegacyFlags: [String] {
        legacyFlags(in: currentTicket()?.partition ?? .anonymous)
    }

    /// Forgets the signed-in account's rejected uploads, e.g. once the app has reported them.
    ///
    /// - Throws: ``StoreSyncClientError/storage(_:)`` when the store fails.
    public func clearRejectedUploads() throws {
        guard let ticket = currentTicket() else { return }
        try write(Optional<[RejectedUpload]>.none, .rejected, in: ticket.partition)
    }
}

/// A snapshot that passed verification, and the bytes it came from.
struct VerifiedSnapshot: Sendable {
    let partition: CachePartition
    let bytes: Data
    let snapshot: Snapshot
}
