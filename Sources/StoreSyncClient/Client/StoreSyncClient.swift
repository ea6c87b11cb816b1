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
///     store: FileStore(directory: cacheDirectory))     // the session goes to the Keychain
/// let purchases = PurchaseCoordinator(client: client)  // StoreKit 2, on Apple platforms
/// await purchases.start()
/// try await purchases.signIn(email: email, password: password, deviceName: "iPad")
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
    let sessionStore: any SessionStore
    let api: ServerAPI
    let verifier: SnapshotVerifier
    let now: @Sendable () -> Date
    let sleep: @Sendable (TimeInterval) async throws -> Void

    var storedSession: StoredSession?
    /// Bumps at every sign-in, sign-up and sign-out: an operation that started under another
    /// generation drops its answer.
    var generation: UInt64 = 0
    /// The generation whose session ended because the server refused its token: its operations
    /// still in flight throw ``StoreSyncClientError/unauthorized`` rather than `sessionChanged`.
    var refusedGeneration: UInt64?
    /// The last snapshot verified, with the exact bytes it was verified from.
    var snapshotMemo: VerifiedSnapshot?
    /// Outbox entries being uploaded right now, so two calls never upload one entry at once.
    var uploadsInFlight: Set<String> = []
    /// When to offer anonymous purchases again after an offer failed, and how often it failed.
    var claimRetryAt: Date?
    var claimFailures = 0
    /// The flush running now, and whether a trigger arrived while it ran (forced or not).
    var runningFlush: Task<FlushOutcome, Never>?
    var flushRequestedDuringRun: Bool?
    /// What ``start(connectivity:)`` set going: the retry timer and the connectivity listener.
    var automaticFlushing = false
    var retryTimer: Task<Void, Never>?
    var connectivityListener: Task<Void, Never>?
    /// ``installationId`` once read.
    var installationIdMemo: UUID?
    /// Cached items found untrustworthy and discarded, or unreadable, since this client was
    /// created: each key with each problem once, the newest 100.
    public internal(set) var integrityIssues: [CacheIntegrityIssue] = []

    /// Creates a client and restores the session saved by an earlier run.
    ///
    /// - Parameters:
    ///   - configuration: The server and its pinned public key.
    ///   - store: Where purchases, snapshots, the outbox and the catalog are cached.
    ///   - sessionStore: Where the session (with its bearer token) is kept, apart from the
    ///     cache: `KeychainStore()` on Apple platforms and an ``InMemoryStore`` elsewhere
    ///     when `nil`. A session an older version kept in `store` moves here.
    ///   - transport: How requests travel; `URLSession` by default.
    ///   - now: The clock; tests pass their own.
    ///   - sleep: Waits a number of seconds, for the outbox's retry timer; tests pass their own.
    public init(
        configuration: Configuration,
        store: any KeyValueStore,
        sessionStore: (any SessionStore)? = nil,
        transport: any StoreSyncTransport = URLSessionTransport(),
        now: @escaping @Sendable () -> Date = Date.init,
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = StoreSyncClient.sleepOnTask
    ) {
        self.configuration = configuration
        cache = store
        self.sessionStore = sessionStore ?? Self.defaultSessionStore()
        api = ServerAPI(baseURL: configuration.baseURL, transport: transport)
        verifier = SnapshotVerifier(base64PublicKey: configuration.serverPublicKey)
        self.now = now
        self.sleep = sleep
        if let problem = Self.moveSession(from: store, to: self.sessionStore) {
            integrityIssues.note(CacheIntegrityIssue(key: CacheKeys.session, problem: problem, detectedAt: now()))
        }
        do {
            if let bytes = try self.sessionStore.data(forKey: CacheKeys.session) {
                storedSession = try StoreSyncClient.decoder.decode(StoredSession.self, from: bytes)
            }
        } catch {
            integrityIssues.note(
                CacheIntegrityIssue(key: CacheKeys.session, problem: "the saved session is unreadable: \(error)", detectedAt: now()))
        }
    }

    /// Stops the outbox's timers and listeners when the app lets go of the client.
    deinit {
        retryTimer?.cancel()
        connectivityListener?.cancel()
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
        return readList(.rejected, in: ticket.partition, as: Readable<RejectedUpload>.self)
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
