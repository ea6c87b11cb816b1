internal import Foundation
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The unprivileged account PostgreSQL runs as when this process is root, and how to switch to it.
///
/// PostgreSQL refuses to start as root. As root, every PostgreSQL tool is started through
/// `setpriv` (or `runuser`) as `postgres` when that account exists, else `nobody`, and the
/// cluster's files are given to that account.
struct ServerAccount: Sendable {
    let name: String
    let uid: uid_t
    let gid: gid_t
    /// The command and arguments that run what follows as this account.
    let launcherPrefix: [String]

    /// The account to use, or nil when this process is not root (PostgreSQL then runs as us).
    static func resolve(preferred: String?) throws -> ServerAccount? {
        guard geteuid() == 0 else { return nil }
        let names = preferred.map { [$0] } ?? ["postgres", "nobody"]
        guard let (name, uid, gid) = names.lazy.compactMap(lookUp).first else {
            throw EmbeddedPostgresError.noUnprivilegedUser
        }
        let tools = ["/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
        guard let tool = tools.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw EmbeddedPostgresError.noPrivilegeDropTool
        }
        let prefix = tool.hasSuffix("setpriv")
            ? [tool, "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--"]
            : [tool, "-u", name, "--"]
        return ServerAccount(name: name, uid: uid, gid: gid, launcherPrefix: prefix)
    }

    private static func lookUp(_ name: String) -> (String, uid_t, gid_t)? {
        guard let entry = getpwnam(name), entry.pointee.pw_uid != 0 else { return nil }
        return (name, entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// Gives `path` and everything below it to this account.
    func takeOwnership(of path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        try changeOwner(path)
        guard isDirectory.boolValue, let enumerator = FileManager.default.enumerator(atPath: path) else { return }
        while let relative = enumerator.nextObject() as? String {
            try changeOwner(path + "/" + relative)
        }
    }

    private func changeOwner(_ path: String) throws {
        guard lchown(path, uid, gid) == 0 else {
            throw EmbeddedPostgresError.fileSystem(path: path, reason: "cannot give it to \(name): \(String(cString: strerror(errno)))")
        }
    }

    /// The first ancestor of `path` this account cannot pass through, or nil when all are open to it.
    func firstUntraversableAncestor(of path: String) -> String? {
        firstUntraversable((path as NSString).deletingLastPathComponent)
    }

    /// The first of `directory` and its ancestors this account cannot pass through, or nil
    /// when all are open to it.
    func firstUntraversable(_ directory: String) -> String? {
        var ancestors: [String] = []
        var current = directory
        while !current.isEmpty {
            ancestors.append(current)
            if current == "/" { break }
            current = (current as NSString).deletingLastPathComponent
        }
        for ancestor in ancestors.reversed() {
            var info = stat()
            guard stat(ancestor, &info) == 0 else { return ancestor }
            let mode = info.st_mode
            let allowed: Bool
            if info.st_uid == uid {
                allowed = mode & S_IXUSR != 0
            } else if info.st_gid == gid {
                allowed = mode & S_IXGRP != 0
            } else {
                allowed = mode & S_IXOTH != 0
            }
            if !allowed { return ancestor }
        }
        return nil
    }
}
