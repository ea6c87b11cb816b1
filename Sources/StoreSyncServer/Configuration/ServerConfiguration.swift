import AppStoreVerification
public import Foundation
public import Logging
public import StoreSyncCore

/// Everything `storesync serve` needs, validated once at start-up.
///
/// Built from the command line and environment variables by ``init(reader:)``; tests build it
/// directly.
public struct ServerConfiguration: Sendable {
    public var httpHost = "127.0.0.1"
    public var httpPort = 8080
    /// NIO event loops serving HTTP; request handlers run on Swift Concurrency's threads.
    public var httpEventLoops = HTTPEventLoops.defaultCount
    /// Which PostgreSQL to use: `DATABASE_URL`, the standby and direct connections, or the
    /// embedded cluster's directory.
    public var database = DatabaseSettings()
    public var databasePoolSize = 8
    /// How far behind its primary a standby may be and still serve a lookup.
    public var databaseReadMaxLagMilliseconds = 1_000
    /// Without `LISTEN`, how often cached answers are checked against the database.
    public var databaseChangePollMilliseconds = 1_000
    /// Where the `NNNN_name.sql` migrations are; `nil`: ``SchemaLocation`` finds them.
    public var schemaDirectory: String?
    /// Whether serve applies the migrations at start; when `false` it checks that the database
    /// has every migration of this build and refuses to start otherwise, so a long migration
    /// runs as its own job (`storesync migrate`) and never inside a server a liveness probe
    /// may kill halfway.
    public var migrateOnStart = true
    public var bundleId: String
    public var appAppleId: Int64?
    public var environment: AppStoreEnvironment
    /// A PEM file of trusted roots; `nil`: Apple Root CA - G3.
    public var trustedRootsPath: String?
    /// The admin bearer key; `nil` turns the admin routes off (404).
    public var adminAPIKey: String?
    /// The raw 32-byte Ed25519 private key that signs snapshots; `nil`: ephemeral (not in Production).
    public var signingKey: Data?
    public var transferPolicy: TransferPolicy = .transfer
    /// Whether a Production server grants Sandbox purchases (App Review, TestFlight).
    public var sandboxInProduction: SandboxInProduction = .grant
    /// A session unused this long is over (90 days by default).
    public var sessionIdleSeconds = 7_776_000
    /// Under `transfer` and `transferIfNoActiveSubscription`: how long a purchase that moved
    /// between accounts stays put before a restore may move it again; 0 turns the wait off.
    public var transferCooldownSeconds = 86_400
    public var verifyReceiptURL = ReceiptVerifierConfiguration.appleProductionURL
    public var verifyReceiptSandboxURL = ReceiptVerifierConfiguration.appleSandboxURL
    public var sharedSecret: String?
    /// The most one request to `verifyReceipt` may take before it is sent again. Not a
    /// setting: tests that count the requests a stand-in in their own process saw lengthen it,
    /// so a machine the suite has slowed does not read as an endpoint that answered nothing.
    public var verifyReceiptRequestTimeout = ReceiptVerifierConfiguration.defaultTimeout
    /// The most one receipt's verification may take in all, attempts and waits included (not
    /// a setting, as ``verifyReceiptRequestTimeout``).
    public var verifyReceiptTotalTimeout = ReceiptVerifierConfiguration.defaultTotalTimeout
    /// A JSON catalog file loaded at start.
    public var catalogPath: String?
    public var offlineGraceSeconds = 259_200
    public var allowUnverified = false
    public var maxBodyBytes = 16 * 1024 * 1024
    /// The most accounts whose snapshot is cached (about 1–2 KB each); 0 turns the cache off.
    public var snapshotCacheEntries = 50_000
    /// The most bytes of snapshot bodies cached; a body over an eighth of it is not cached.
    public var snapshotCacheBytes = 128 * 1024 * 1024
    /// bcrypt's work factor for new password hashes.
    public var passwordHashCost: UInt8 = 12
    /// The most entries one restore may carry.
    public var maxRestoreEntries = 20_000
    /// How often a running server checks that no newer build migrated the database beyond
    /// what it can run on (``SchemaWatch``); not a setting: tests shorten it.
    public var schemaWatchInterval: Duration = .seconds(30)
    /// Sign-in and sign-up throttling per email and per client address.
    public var loginLimits = LoginLimits()
    /// Seconds a connection may send nothing (or stop mid-request) before it is closed.
    public var httpIdleTimeoutSeconds = 60
    /// The most HTTP connections open at once; a connection beyond it is closed as it opens.
    public var httpMaxConnections = 4096
    /// The largest body of the routes that need no credentials (sign-up, sign-in).
    public var maxAnonymousBodyBytes = 16 * 1024
    /// The proxies whose `X-Forwarded-For` names the client address; empty: the TCP peer is the client.
    public var trustedProxies = TrustedProxies()
    /// Password hashes (bcrypt) running or waiting at once; a sign-up or sign-in beyond it gets a 503.
    public var passwordChecks = 32
    /// Seconds a statement of the server may run before PostgreSQL cancels it; 0: no limit.
    public var databaseStatementTimeoutSeconds = 30
    /// Seconds a statement of the server may wait for a lock; 0: no limit.
    public var databaseLockTimeoutSeconds = 10
    /// How long a request waits for a connection of the primary's pool before it is answered
    /// 503. Not a setting: tests that pile requests on one account lengthen it (with
    /// ``databaseLockTimeoutSeconds``) when what they check is the outcome, not the bound.
    public var databasePoolCheckoutTimeout: Duration = .seconds(10)
    public var logLevel: Logger.Level = .info
    /// The App Store Server API key; `nil`: the routes and jobs that need the API are off.
    public var appStoreAPIKey: AppStoreAPIKeySettings?
    /// Where App Store Server API requests go for every environment; `nil`: Apple's, by environment.
    public var appStoreAPIURL: URL?
    /// Subscriptions due without a notification that the background job refreshes per minute
    /// at most; 0 turns the job off.
    public var reconcilePerMinute = 30
    /// How long the job waits before it looks again when nothing is due (not an environment
    /// setting: tests shorten it).
    public var reconcileIdleInterval = Duration.seconds(60)
    /// How long `POST /v1/admin/appstore/test-notification` waits for the notification (not an
    /// environment setting).
    public var testNotificationWait = Duration.seconds(20)
    /// The first wait before the notification recovery at start is tried again after a failure
    /// (Apple or the database unreachable as the server started); it doubles up to an hour.
    /// Not a setting: tests shorten it.
    public var recoveryRetryDelay = Duration.seconds(60)
    /// How `storesync serve` writes log lines (the executable installs the handler).
    public var logFormat: LogFormat = .text
    /// The scheduling class of `storesync serve`'s threads (the executable applies it, before
    /// the server starts its threads).
    public var threadScheduling = ThreadScheduling.default
    /// Where every event is POSTed; `nil`: no webhook, and no delivery is queued.
    public var webhookURL: URL?
    /// The HMAC-SHA256 key of `StoreSync-Signature`; required with ``webhookURL``.
    public var webhookSecret: String?
    /// Backoff, give-up period, timeout and polling of webhook deliveries.
    public var webhookDelivery = WebhookDeliveryPolicy()
    /// Where `/metrics` listens when ``metricsPort`` is set.
    public var metricsHost = "127.0.0.1"
    /// Serve `/metrics` on this port, not on the API port; `nil`: on the API port.
    public var metricsPort: Int?

    /// Creates a configuration with the two settings that have no default.
    ///
    /// - Parameters:
    ///   - bundleId: The app's bundle id.
    ///   - environment: The App Store environment transactions must come from.
    public init(bundleId: String, environment: AppStoreEnvironment) {
        self.bundleId = bundleId
        self.environment = environment
    }

    /// Checks the rules that span several settings.
    ///
    /// - Throws: ``ConfigurationError`` naming the first setting that breaks a rule.
    public func validate() throws(ConfigurationError) {
        if environment == .production {
            if appAppleId == nil { throw .missing(.appAppleId) }
            if signingKey == nil { throw .invalid(.signingKey, "Production needs a fixed signing key (storesync keygen)") }
            if allowUnverified { throw .invalid(.allowUnverified, "unverified transactions are refused in Production") }
        }
        if let signingKey, signingKey.count != 32 {
            throw .invalid(.signingKey, "expected the base64 of 32 bytes, got \(signingKey.count) bytes")
        }
        let eventLoops = HTTPEventLoops.allowedCounts
        if !eventLoops.contains(httpEventLoops) {
            throw .invalid(.httpEventLoops, "expected \(eventLoops.lowerBound) to \(eventLoops.upperBound), got \(httpEventLoops)")
        }
        let idle = Self.sessionIdleRange
        if !idle.contains(sessionIdleSeconds) {
            throw .invalid(.sessionIdleSeconds, "expected \(idle.lowerBound) to \(idle.upperBound), got \(sessionIdleSeconds)")
        }
        if !(4...31).contains(passwordHashCost) { throw .invalid(.bcryptCost, "bcrypt's cost is 4 to 31") }
        if !Self.transferCooldownRange.contains(transferCooldownSeconds) {
            throw .invalid(
                .transferCooldownSeconds,
                "expected \(Self.transferCooldownRange.lowerBound) to \(Self.transferCooldownRange.upperBound) seconds, got \(transferCooldownSeconds)")
        }
        if let adminAPIKey, adminAPIKey.utf8.count < 16 {
            throw .invalid(.adminAPIKey, "use at least 16 characters")
        }
        if !Self.reconcileRates.contains(reconcilePerMinute) {
            throw .invalid(
                .reconcilePerMinute,
                "expected \(Self.reconcileRates.lowerBound) to \(Self.reconcileRates.upperBound), got \(reconcilePerMinute)")
        }
        try database.validateURLs()
        try validateProductionEndpoints()
        try validateLimits()
        try validateOperations()
    }
}

extension ServerConfiguration {
    /// The cool-downs accepted: none, up to a year.
    static let transferCooldownRange = 0...31_536_000
}

/// How many sign-in attempts are allowed in a sliding window.
public struct LoginLimits: Sendable, Hashable {
    /// Failed attempts per email.
    public var failuresPerEmail = 10
    /// Sign-in attempts of any outcome per client address.
    public var attemptsPerAddress = 60
    /// Sign-up attempts of any outcome per client address; as loose as sign-in's, because many
    /// users share one address behind carrier-grade NAT.
    public var signUpsPerAddress = 60
    /// The sliding window every limit counts in.
    public var windowSeconds = 900

    /// Creates the default limits: 10 failures per email, 60 sign-ins and 60 sign-ups per
    /// address, per 15 minutes.
    public init() {}
}
