public import Foundation

extension EmbeddedPostgres {
    /// Where, if anywhere, PostgreSQL could not reach a cluster under `directory`: nothing
    /// when this process is not root; as root, the first directory above it (of those that
    /// exist) that the account PostgreSQL runs as may not enter, such as a home directory
    /// (`/root` is 0700). The directories still to be made are made open to it.
    ///
    /// - Parameters:
    ///   - directory: The cluster's directory, as ``init(directory:options:logger:)`` takes it.
    ///   - options: The options the cluster would start with (its unprivileged user).
    /// - Returns: The blocking directory, or `nil` when the cluster can be started there (or
    ///   when starting it would fail for another reason, which ``start()`` then reports).
    public static func blockedAncestor(of directory: URL, options: Options = Options()) -> String? {
        guard let account = try? ServerAccount.resolve(preferred: options.unprivilegedUser) else { return nil }
        var existing = (directory.standardizedFileURL.path as NSString).deletingLastPathComponent
        while existing != "/", !existing.isEmpty, !FileManager.default.fileExists(atPath: existing) {
            existing = (existing as NSString).deletingLastPathComponent
        }
        return account.firstUntraversable(existing)
    }
}
