public import Configuration
public import Logging

/// What `storesync migrate` reads: the database, the migrations and the logging, and nothing
/// of the App Store or the server's keys, so a migration job needs no secret but the
/// database's own.
public struct MigrationSettings: Sendable {
    /// Which PostgreSQL to migrate.
    public var database: DatabaseSettings
    /// `STORESYNC_SCHEMA_DIR`; `nil`: ``SchemaLocation`` finds the migrations.
    public var schemaDirectory: String?
    /// `LOG_LEVEL`.
    public var logLevel: Logger.Level
    /// `LOG_FORMAT`.
    public var logFormat: LogFormat

    /// Reads and validates these settings alone.
    ///
    /// - Parameter reader: The configuration (command line, then environment variables).
    /// - Throws: ``ConfigurationError`` naming the first invalid setting.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        let settings = SettingReader(reader: reader)
        database = try DatabaseSettings(settings)
        schemaDirectory = settings.optional(.schemaDirectory)
        logLevel = try ServerConfiguration.logLevel(settings) ?? .info
        logFormat = try ServerConfiguration.logFormat(reader: reader)
    }
}
