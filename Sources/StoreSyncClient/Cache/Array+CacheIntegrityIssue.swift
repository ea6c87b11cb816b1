extension [CacheIntegrityIssue] {
    /// The most issues ``StoreSyncClient/integrityIssues`` holds; the oldest go first.
    static let maximumCount = 100

    /// Adds an issue unless the same key already has the same problem listed: a key that stays
    /// unreadable (the Keychain before first unlock, a file without permission) fails at every
    /// read, and a UI may read many times a second.
    mutating func note(_ issue: CacheIntegrityIssue) {
        guard !contains(where: { $0.key == issue.key && $0.problem == issue.problem }) else { return }
        append(issue)
        if count > Self.maximumCount { removeFirst(count - Self.maximumCount) }
    }
}
