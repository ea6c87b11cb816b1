/// One setting of `storesync serve`: its configuration key, the environment variable and the
/// command-line option that set it, and what it does — the single list behind `--help`, the
/// README table and every start-up error.
public struct Setting: Sendable, Hashable {
    /// The swift-configuration key, e.g. `http.port`.
    public let key: String
    /// The environment variable the key maps to, e.g. `HTTP_PORT`.
    public let environmentName: String
    /// What the setting does and its default, in one line.
    public let summary: String

    /// The command-line option that sets the key, e.g. `--http-port` for `http.port`: each
    /// component of the key in dash-case, joined by dashes.
    public var commandLineOption: String {
        var option = "-"
        for component in key.split(separator: ".") {
            option += "-"
            for character in component {
                if character.isUppercase { option += "-" }
                option += character.lowercased()
            }
        }
        return option
    }

    init(_ key: String, _ environmentName: String, _ summary: String) {
        self.key = key
        self.environmentName = environmentName
        self.summary = summary
    }
}

extension Setting {
    static let httpHost = Setting("http.host", "HTTP_HOST", "address to listen on (default 127.0.0.1)")
    static let httpPort = Setting("http.port", "HTTP_PORT", "port to listen on (default 8080; 0 picks a free port)")
    static let httpEventLoops = Setting(
        "http.eventLoops", "HTTP_EVENT_LOOPS",
        "threads that read and write HTTP connections (default: one per core)")
    static let threadScheduling = Setting(
        "storesync.threadScheduling", "STORESYNC_THREAD_SCHEDULING",
        "batch (default on Linux): the server's threads never preempt PostgreSQL's on shared cores; normal: the kernel's default class")
    static let databaseURL = Setting(
        "database.url", "DATABASE_URL",
        "postgres://user:pass@host:port/db; unset: an embedded cluster under STORESYNC_DATA_DIR")
    static let databasePoolSize = Setting(
        "database.poolSize", "DATABASE_POOL_SIZE", "PostgreSQL connections per server (default 8)")
    static let databasePoolMode = Setting(
        "database.poolMode", "DATABASE_POOL_MODE",
        "session (default) or transaction: DATABASE_URL and DATABASE_READ_URL are PgBouncer with pool_mode = transaction (set its query_wait_timeout and server_login_retry low, or requests hang while PostgreSQL restarts)")
    static let databaseReadURL = Setting(
        "database.readUrl", "DATABASE_READ_URL",
        "a hot standby that serves entitlement lookups, never older than what the device has seen; unset: the primary")
    static let databaseReadMaxLag = Setting(
        "database.readMaxLagMs", "DATABASE_READ_MAX_LAG_MS",
        "a standby further behind than this serves no lookup; the primary answers (default 1000)")
    static let databaseListenURL = Setting(
        "database.listenUrl", "DATABASE_LISTEN_URL",
        "a direct connection (not a transaction pooler) for LISTEN and migrations; unset: DATABASE_URL, or polling behind PgBouncer")
    static let databaseChangePoll = Setting(
        "database.changePollMs", "DATABASE_CHANGE_POLL_MS",
        "without LISTEN: how often cached answers are checked against the database (default 1000)")
    static let dataDirectory = Setting(
        "storesync.dataDir", "STORESYNC_DATA_DIR", "embedded PostgreSQL directory (default .storesync)")
    static let schemaDirectory = Setting(
        "storesync.schemaDir", "STORESYNC_SCHEMA_DIR", "migrations directory (default: the Schema/ bundled with the server)")
    static let migrateOnStart = Setting(
        "storesync.migrateOnStart", "STORESYNC_MIGRATE_ON_START",
        "true (default): serve applies the migrations at start; false: it only checks them, and refuses to start "
            + "on a database that lacks one (run storesync migrate first, e.g. as a job before a rollout)")
    static let bundleId = Setting("storesync.bundleId", "STORESYNC_BUNDLE_ID", "required: the app's bundle id")
    static let appAppleId = Setting(
        "storesync.appAppleId", "STORESYNC_APP_APPLE_ID", "the app's Apple id (required in Production)")
    static let environment = Setting(
        "storesync.environment", "STORESYNC_ENVIRONMENT", "required: Production, Sandbox, Xcode or LocalTesting")
    static let trustedRoots = Setting(
        "storesync.trustedRoots", "STORESYNC_TRUSTED_ROOTS", "PEM file of trusted roots (default: Apple Root CA - G3)")
    static let adminAPIKey = Setting(
        "storesync.adminApiKey", "STORESYNC_ADMIN_API_KEY", "bearer key of the admin routes; unset: admin routes are off")
    static let signingKey = Setting(
        "storesync.signingKey", "STORESYNC_SIGNING_KEY",
        "base64 raw Ed25519 private key for snapshots (`storesync keygen`); required in Production")
    static let transferPolicy = Setting(
        "storesync.transferPolicy", "STORESYNC_TRANSFER_POLICY",
        "transfer (default), transferIfNoActiveSubscription, keep or share")
    static let sandboxInProduction = Setting(
        "storesync.sandboxInProduction", "STORESYNC_SANDBOX_IN_PRODUCTION",
        "Production only: grant (default) or refuse Sandbox purchases (App Review and TestFlight buy in the sandbox)")
    static let sessionIdleSeconds = Setting(
        "storesync.sessionIdleSeconds", "STORESYNC_SESSION_IDLE_SECONDS",
        "a session unused this long is over (default 7776000, 90 days)")
    static let transferCooldownSeconds = Setting(
        "storesync.transferCooldownSeconds", "STORESYNC_TRANSFER_COOLDOWN_SECONDS",
        "under transfer policies, how long a purchase that moved between accounts stays put (default 86400; 0: no wait)")
    static let verifyReceiptURL = Setting(
        "storesync.verifyReceiptUrl", "STORESYNC_VERIFY_RECEIPT_URL", "legacy verifyReceipt endpoint (default Apple's)")
    static let verifyReceiptSandboxURL = Setting(
        "storesync.verifyReceiptSandboxUrl", "STORESYNC_VERIFY_RECEIPT_SANDBOX_URL",
        "legacy sandbox verifyReceipt endpoint (default Apple's)")
    static let sharedSecret = Setting(
        "storesync.sharedSecret", "STORESYNC_SHARED_SECRET", "App Store shared secret for legacy receipts")
    static let catalog = Setting(
        "storesync.catalog", "STORESYNC_CATALOG", "JSON file of products loaded at start ({\"products\": [...]})")
    static let offlineGraceSeconds = Setting(
        "storesync.offlineGraceSeconds", "STORESYNC_OFFLINE_GRACE_SECONDS",
        "how long a device may trust a snapshot offline (default 259200, 3 days)")
    static let allowUnverified = Setting(
        "storesync.allowUnverified", "STORESYNC_ALLOW_UNVERIFIED",
        "development only: accept unverified JWS (default false; refused in Production)")
    static let maxBodyBytes = Setting(
        "storesync.maxBodyBytes", "STORESYNC_MAX_BODY_BYTES", "largest request body accepted (default 16777216)")
    static let snapshotCacheEntries = Setting(
        "storesync.snapshotCacheEntries", "STORESYNC_SNAPSHOT_CACHE_ENTRIES",
        "most accounts whose signed snapshot is cached (default 50000, ~1-2 KB each; 0: no cache)")
    static let snapshotCacheBytes = Setting(
        "storesync.snapshotCacheBytes", "STORESYNC_SNAPSHOT_CACHE_BYTES",
        "most bytes of snapshots cached (default 134217728; one over an eighth of it is not cached)")
    static let bcryptCost = Setting(
        "storesync.bcryptCost", "STORESYNC_BCRYPT_COST", "bcrypt work factor for passwords (default 12)")
    static let maxRestoreEntries = Setting(
        "storesync.maxRestoreEntries", "STORESYNC_MAX_RESTORE_ENTRIES", "most entries one restore may carry (default 20000)")
    static let httpIdleTimeoutSeconds = Setting(
        "http.idleTimeoutSeconds", "HTTP_IDLE_TIMEOUT_SECONDS",
        "a connection that sends nothing (or stops mid-request) this long is closed (default 60)")
    static let httpMaxConnections = Setting(
        "http.maxConnections", "HTTP_MAX_CONNECTIONS",
        "most open HTTP connections; further ones are closed at once (default 4096)")
    static let maxAnonymousBodyBytes = Setting(
        "storesync.maxAnonymousBodyBytes", "STORESYNC_MAX_ANONYMOUS_BODY_BYTES",
        "largest body of sign-up and sign-in, which need no credentials (default 16384)")
    static let trustedProxies = Setting(
        "storesync.trustedProxies", "STORESYNC_TRUSTED_PROXIES",
        "comma-separated CIDRs whose X-Forwarded-For names the client address and whose X-Request-Id is kept (default: none, the TCP peer counts)")
    static let passwordChecks = Setting(
        "storesync.passwordChecks", "STORESYNC_PASSWORD_CHECKS",
        "password hashes running or queued at once; more get 503 with Retry-After (default 32)")
    static let databaseStatementTimeoutSeconds = Setting(
        "database.statementTimeoutSeconds", "DATABASE_STATEMENT_TIMEOUT_SECONDS",
        "longest a server statement may run before PostgreSQL cancels it (default 30; 0: no limit)")
    static let databaseLockTimeoutSeconds = Setting(
        "database.lockTimeoutSeconds", "DATABASE_LOCK_TIMEOUT_SECONDS",
        "longest a server statement waits for a lock before it fails with a 503 (default 10; 0: no limit)")
    static let logLevel = Setting("log.level", "LOG_LEVEL", "trace, debug, info (default), notice, warning, error")
    static let appStoreAPIKeyId = Setting(
        "storesync.appstoreApi.keyId", "STORESYNC_APPSTORE_API_KEY_ID",
        "App Store Server API key id from App Store Connect; set the three API settings together, or none")
    static let appStoreAPIIssuerId = Setting(
        "storesync.appstoreApi.issuerId", "STORESYNC_APPSTORE_API_ISSUER_ID", "App Store Server API issuer id")
    static let appStoreAPIPrivateKey = Setting(
        "storesync.appstoreApi.privateKey", "STORESYNC_APPSTORE_API_PRIVATE_KEY",
        "path of the App Store Server API .p8 private key")
    static let appStoreAPIURL = Setting(
        "storesync.appstoreApi.url", "STORESYNC_APPSTORE_API_URL",
        "App Store Server API base URL for every environment (default Apple's, by environment)")
    static let reconcilePerMinute = Setting(
        "storesync.reconcilePerMinute", "STORESYNC_RECONCILE_PER_MINUTE",
        "subscriptions due without a notification refreshed per minute at most (default 30; 0 turns it off)")
    static let logFormat = Setting(
        "log.format", "LOG_FORMAT", "text (default) or json: one JSON object per line, with the request id")
    static let adminAPIKeyFile = Setting(
        "storesync.adminApiKeyFile", "STORESYNC_ADMIN_API_KEY_FILE",
        "file holding the admin key (docker secrets, `storesync keygen --into`); STORESYNC_ADMIN_API_KEY wins")
    static let signingKeyFile = Setting(
        "storesync.signingKeyFile", "STORESYNC_SIGNING_KEY_FILE",
        "file holding STORESYNC_SIGNING_KEY's value (`storesync keygen --into`); STORESYNC_SIGNING_KEY wins")
    static let webhookURL = Setting(
        "storesync.webhookUrl", "STORESYNC_WEBHOOK_URL", "http(s) URL every event is POSTed to; unset: no webhook")
    static let webhookSecret = Setting(
        "storesync.webhookSecret", "STORESYNC_WEBHOOK_SECRET",
        "HMAC-SHA256 key of the StoreSync-Signature header (>= 16 characters); required with STORESYNC_WEBHOOK_URL")
    static let metricsHost = Setting(
        "metrics.host", "METRICS_HOST", "address /metrics listens on when METRICS_PORT is set (default 127.0.0.1)")
    static let metricsPort = Setting(
        "metrics.port", "METRICS_PORT", "serve /metrics on this port instead of the API port (unset: on the API port)")

    /// Every setting, in the order `--help` lists them.
    public static let all: [Setting] = [
        .httpHost, .httpPort, .httpEventLoops, .threadScheduling, .databaseURL, .databasePoolSize, .databasePoolMode, .databaseReadURL,
        .databaseReadMaxLag, .databaseListenURL, .databaseChangePoll, .dataDirectory, .schemaDirectory, .migrateOnStart,
        .bundleId, .appAppleId, .environment, .trustedRoots, .adminAPIKey, .signingKey, .transferPolicy,
        .sandboxInProduction, .sessionIdleSeconds, .transferCooldownSeconds, .verifyReceiptURL,
        .verifyReceiptSandboxURL, .sharedSecret, .catalog, .offlineGraceSeconds, .allowUnverified, .maxBodyBytes,
        .maxRestoreEntries, .bcryptCost, .snapshotCacheEntries, .snapshotCacheBytes, .logLevel, .appStoreAPIKeyId, .appStoreAPIIssuerId,
        .appStoreAPIPrivateKey, .appStoreAPIURL, .reconcilePerMinute,
        .httpIdleTimeoutSeconds, .httpMaxConnections, .maxAnonymousBodyBytes, .trustedProxies, .passwordChecks,
        .databaseStatementTimeoutSeconds, .databaseLockTimeoutSeconds,
        .logFormat, .adminAPIKeyFile, .signingKeyFile, .webhookURL, .webhookSecret, .metricsHost, .metricsPort,
    ]
}
