public import Configuration

/// The settings that say which PostgreSQL a server uses, read apart from the rest so that
/// `storesync migrate` needs these and nothing else (no App Store identity, no signing key).
public struct DatabaseSettings: Sendable, Hashable {
    /// `DATABASE_URL`; `nil`: run an embedded PostgreSQL under ``dataDirectory``.
    public var url: String?
    /// Whether ``url`` (and ``readURL``) is a pooler in transaction mode.
    public var poolMode = DatabasePoolMode.session
    /// `DATABASE_READ_URL`: a hot standby that serves entitlement lookups.
    public var readURL: String?
    /// `DATABASE_LISTEN_URL`: a direct connection for `LISTEN` and migrations.
    public var listenURL: String?
    /// `STORESYNC_DATA_DIR`: where the embedded cluster lives when ``url`` is unset; `nil`:
    /// `.storesync` in the working directory (``ServerDatabase`` says where when that will not do).
    public var dataDirectory: String?

    /// Settings with every default: the embedded cluster under `.storesync`.
    public init() {}

    /// Reads and validates the database settings alone.
    ///
    /// - Parameter reader: The configuration (command line, then environment variables).
    /// - Throws: ``ConfigurationError`` naming the first invalid setting.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        try self.init(SettingReader(reader: reader))
    }

    init(_ settings: SettingReader) throws(ConfigurationError) {
        url = settings.optional(.databaseURL)
        poolMode = try settings.choice(.databasePoolMode) ?? poolMode
        readURL = settings.optional(.databaseReadURL, isSecret: true)
        listenURL = settings.optional(.databaseListenURL, isSecret: true)
        dataDirectory = settings.optional(.dataDirectory)
        try validateURLs()
    }
}
