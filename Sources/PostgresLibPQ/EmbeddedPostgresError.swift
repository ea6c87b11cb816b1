/// Why a private PostgreSQL cluster could not be set up, started or stopped.
///
/// Each description is one line that says what to do.
public enum EmbeddedPostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// initdb, pg_ctl or postgres was not found anywhere this library looks.
    case binariesNotFound(searched: [String])
    /// The process is root and no unprivileged account exists to run PostgreSQL as.
    case noUnprivilegedUser
    /// The process is root and neither `setpriv` nor `runuser` is installed.
    case noPrivilegeDropTool
    /// The unprivileged account cannot reach the cluster directory.
    case directoryNotReachable(user: String, blockedAt: String)
    /// The data directory holds something that is not a PostgreSQL cluster.
    case dataDirectoryNotEmpty(path: String)
    /// A PostgreSQL tool failed; `output` is the end of what it printed.
    case commandFailed(command: String, status: Int32, output: String)
    /// A database name that is empty, longer than 63 bytes, or contains NUL.
    case invalidDatabaseName(String)
    /// A file system operation on the cluster directory failed.
    case fileSystem(path: String, reason: String)
    /// A directory the cluster would use already exists and is not private to it: another
    /// owner, wider permissions than 0700, or not a directory at all.
    case unsafeDirectory(path: String, reason: String)
    /// This process's user id has no name, which peer authentication needs.
    case unnamedUser(uid: UInt32)
    /// The data directory was made by a PostgreSQL major version none of the installed
    /// binaries is (a distribution upgrade moved to a newer one).
    case dataVersionNotInstalled(dataVersion: String, installed: [String])

    /// One line naming the problem and the fix.
    public var description: String {
        switch self {
        case .binariesNotFound:
            return "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found: install PostgreSQL "
                + "(Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql@16) or set POSTGRES_BIN_DIR"
        case .noUnprivilegedUser:
            return "PostgreSQL refuses to run as root and neither a 'postgres' nor a 'nobody' account exists: create one (useradd postgres)"
        case .noPrivilegeDropTool:
            return "PostgreSQL refuses to run as root and neither setpriv nor runuser is installed: install util-linux"
        case .directoryNotReachable(let user, let blockedAt):
            return "PostgreSQL runs as '\(user)' (this process is root) and cannot enter \(blockedAt): "
                + "use a data directory outside it or make it traversable (chmod o+x)"
        case .dataDirectoryNotEmpty(let path):
            return "\(path) is not empty and not a PostgreSQL data directory: choose an empty or new directory"
        case .commandFailed(let command, let status, let output):
            // The most telling line: the last FATAL or ERROR the tool or the server printed.
            let lines = output.split(whereSeparator: \.isNewline).map(String.init)
            let telling = lines.last { $0.contains("FATAL") || $0.contains("ERROR") || $0.contains("error") } ?? lines.last ?? ""
            return "\(command) failed with status \(status)" + (telling.isEmpty ? "" : ": \(telling)")
        case .invalidDatabaseName(let name):
            return "database name '\(name)' must be 1 to 63 bytes without NUL"
        case .fileSystem(let path, let reason):
            return "cannot prepare \(path): \(reason)"
        case .unsafeDirectory(let path, let reason):
            return "refusing to use \(path): it \(reason); remove it, or choose another directory"
        case .dataVersionNotInstalled(let dataVersion, let installed):
            let found = installed.isEmpty ? "no version that answers --version" : "PostgreSQL " + installed.joined(separator: ", ")
            return "the data directory was made by PostgreSQL \(dataVersion), and only \(found) is installed: install "
                + "PostgreSQL \(dataVersion) beside it (Debian/Ubuntu: postgresql-\(dataVersion); macOS: postgresql@\(dataVersion)) "
                + "or set POSTGRES_BIN_DIR, then move the data to the new version with pg_upgrade or pg_dump"
        case .unnamedUser(let uid):
            return "user id \(uid) has no name in the user database, which PostgreSQL's peer authentication needs: "
                + "add one (useradd) or set DATABASE_URL"
        }
    }
}
