extension ServerConfiguration {
    /// Checks the limits that bound what one client may hold: connections, bodies, password
    /// work and database time.
    ///
    /// - Throws: ``ConfigurationError`` naming the first setting out of its range.
    func validateLimits() throws(ConfigurationError) {
        if httpIdleTimeoutSeconds < 1 { throw .invalid(.httpIdleTimeoutSeconds, "at least 1 second") }
        if httpMaxConnections < 1 { throw .invalid(.httpMaxConnections, "at least 1 connection") }
        if maxAnonymousBodyBytes < 1024 { throw .invalid(.maxAnonymousBodyBytes, "at least 1024 bytes") }
        if passwordChecks < 1 { throw .invalid(.passwordChecks, "at least 1") }
        if databaseStatementTimeoutSeconds < 0 { throw .invalid(.databaseStatementTimeoutSeconds, "0 (no limit) or more") }
        if databaseLockTimeoutSeconds < 0 { throw .invalid(.databaseLockTimeoutSeconds, "0 (no limit) or more") }
    }
}
