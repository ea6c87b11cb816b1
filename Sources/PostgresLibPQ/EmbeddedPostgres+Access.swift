internal import Foundation

extension EmbeddedPostgres {
    /// Writes who may connect, at every start (an older cluster's `trust` is replaced too):
    /// unix socket only, authenticated by the peer's operating-system user (`peer`), and the
    /// only users admitted, as the superuser, are the one running this process and — when it
    /// is root — the account the server runs as (which owns the data files anyway; a standby's
    /// replication and a PgBouncer in front connect as it). Another local user — even one that
    /// reaches the socket — is refused, and no line trusts anybody.
    func writeAccessRules(owner: ServerAccount?) throws {
        let uid = geteuid()
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name.map({ String(cString: $0) }), !name.isEmpty else {
            throw EmbeddedPostgresError.unnamedUser(uid: UInt32(uid))
        }
        let hba = """
            # Written by StoreSync at every start; edits are lost. Unix socket only: each connection is
            # authenticated by its operating-system user (peer), mapped in pg_ident.conf.
            local all all peer map=storesync
            local replication all peer map=storesync

            """
        let users = [name] + (owner.map { [$0.name] } ?? [])
        let ident = """
            # Written by StoreSync at every start; edits are lost. The user that starts the cluster
            # (and, when that is root, the account the server runs as) connects as the superuser;
            # nobody else connects at all.

            """ + users.map { "storesync \(Self.quoted($0)) \(Self.quoted(options.superuser))\n" }.joined()
        for (file, text) in [("pg_hba.conf", hba), ("pg_ident.conf", ident)] {
            let path = dataDirectory.appendingPathComponent(file).path
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
            else { throw EmbeddedPostgresError.fileSystem(path: path, reason: "cannot write the access rules") }
            try owner?.takeOwnership(of: path)
        }
    }

    /// A user name as one token of `pg_hba.conf` or `pg_ident.conf`.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Creates `path` as a private directory (0700), or checks that an existing one is private:
    /// a real directory (not a link), owned by one of `owners`, closed to group and others.
    ///
    /// A directory prepared by someone else — in `/tmp`, or a shared parent — could hold their
    /// socket, their files or their links; using it would hand them the cluster.
    ///
    /// - Parameters:
    ///   - path: The directory.
    ///   - owners: The user ids it may belong to: this process's and the server account's.
    /// - Throws: ``EmbeddedPostgresError/unsafeDirectory(path:reason:)`` or
    ///   ``EmbeddedPostgresError/fileSystem(path:reason:)``.
    static func ensurePrivateDirectory(_ path: String, owners: [uid_t]) throws {
        var info = stat()
        if lstat(path, &info) == 0 {
            try checkPrivate(path, info, owners: owners)
            return
        }
        guard errno == ENOENT else {
            throw EmbeddedPostgresError.fileSystem(path: path, reason: String(cString: strerror(errno)))
        }
        let parent = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw EmbeddedPostgresError.fileSystem(path: parent, reason: "\(error.localizedDescription)")
        }
        if mkdir(path, 0o700) != 0 {
            let failure = errno
            // Someone made it in between: it is checked like any existing directory.
            guard failure == EEXIST, lstat(path, &info) == 0 else {
                throw EmbeddedPostgresError.fileSystem(path: path, reason: String(cString: strerror(failure)))
            }
            try checkPrivate(path, info, owners: owners)
        }
    }

    private static func checkPrivate(_ path: String, _ info: stat, owners: [uid_t]) throws {
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw EmbeddedPostgresError.unsafeDirectory(path: path, reason: "is not a directory (a link or a file)")
        }
        guard owners.contains(info.st_uid) else {
            throw EmbeddedPostgresError.unsafeDirectory(path: path, reason: "belongs to another user (uid \(info.st_uid))")
        }
        let mode = info.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            throw EmbeddedPostgresError.unsafeDirectory(
                path: path, reason: "is open to other users (mode \(String(mode, radix: 8))); it must be 0700")
        }
    }
}
