import PostgresLibPQ

/// The PostgreSQL connections a server uses, as its settings name them.
struct DatabaseTopology: Sendable {
    /// Where writes, sign-ins, sessions and restores go (`DATABASE_URL`).
    var primary: PostgresConfiguration
    /// A hot standby for entitlement lookups (`DATABASE_READ_URL`).
    var standby: PostgresConfiguration?
    /// A connection that keeps its session: `LISTEN`, migrations and session-level locks
    /// (`DATABASE_LISTEN_URL`, else the primary unless it is a transaction pooler); `nil` when
    /// there is none, and caches are then checked by polling.
    var direct: PostgresConfiguration?
}

extension DatabaseSettings {
    /// The connections these settings name around `primary`, the database `DATABASE_URL` names
    /// (or the embedded cluster, or a test's database).
    ///
    /// - Parameter primary: Where the primary is.
    /// - Returns: The primary marked per ``poolMode``, the standby and the direct connection.
    /// - Throws: ``ConfigurationError`` for a URL that does not parse.
    func topology(primary: PostgresConfiguration) throws(ConfigurationError) -> DatabaseTopology {
        let pooled = poolMode == .transaction
        var topology = DatabaseTopology(primary: primary)
        topology.primary.usesTransactionPooler = topology.primary.usesTransactionPooler || pooled
        if let url = readURL {
            var standby = try Self.parse(url, .databaseReadURL)
            standby.usesTransactionPooler = pooled
            topology.standby = standby
        }
        if let url = listenURL {
            topology.direct = try Self.parse(url, .databaseListenURL)
        } else if !topology.primary.usesTransactionPooler {
            topology.direct = topology.primary
        }
        return topology
    }

    /// Checks that the read and listen URLs parse (`DATABASE_URL` is parsed where it is used).
    func validateURLs() throws(ConfigurationError) {
        if let url = readURL { _ = try Self.parse(url, .databaseReadURL) }
        if let url = listenURL { _ = try Self.parse(url, .databaseListenURL) }
    }

    private static func parse(_ url: String, _ setting: Setting) throws(ConfigurationError) -> PostgresConfiguration {
        do {
            return try PostgresConfiguration(url: url)
        } catch {
            throw .invalid(setting, "\(error)")
        }
    }
}
