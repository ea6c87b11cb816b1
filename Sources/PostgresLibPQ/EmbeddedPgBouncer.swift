public import Foundation
public import Logging
internal import NIOConcurrencyHelpers

/// A private PgBouncer in front of an ``EmbeddedPostgres``, listening on a unix socket only,
/// for tests and benchmarks of a server that runs behind a connection pooler.
///
/// Every database name the client asks for is the same database on the cluster (`* =`), as
/// the cluster's superuser, with trust authentication between client and pooler (the socket
/// directory is private, as the cluster's is); the cluster admits the pooler by peer
/// authentication, as the user it runs as. As root, PgBouncer (which refuses to run as root, as PostgreSQL does) runs as
/// the cluster's unprivileged account, which also owns the directory. It runs as a daemon and
/// is told to stop by its pid file.
public final class EmbeddedPgBouncer: Sendable {
    /// Settings for the pooler.
    public struct Options: Sendable, Hashable {
        /// When a server connection goes back to the pool (PgBouncer's `pool_mode`).
        public enum PoolMode: String, Sendable, Hashable, CaseIterable {
            /// When the client disconnects.
            case session
            /// When each transaction ends: consecutive statements may reach different sessions.
            case transaction
        }

        /// The pool mode; transaction pooling by default, the mode that asks most of a client.
        public var poolMode = PoolMode.transaction
        /// The port; it only names the socket file `.s.PGSQL.<port>`.
        public var port = 6432
        /// Server connections per database and user (`default_pool_size`).
        public var serverConnections = 20
        /// Client connections at most (`max_client_conn`).
        public var maxClientConnections = 500
        /// Seconds a client's query may wait for a server connection before PgBouncer fails it
        /// (`query_wait_timeout`); nil keeps PgBouncer's default, 120 s. While PostgreSQL is
        /// away, queries sent on connections already open wait this long, where a new
        /// connection is refused at once.
        public var queryWaitTimeoutSeconds: Int?
        /// Seconds PgBouncer waits after a failed login to PostgreSQL before it tries again
        /// (`server_login_retry`), refusing clients meanwhile; nil keeps its default, 15 s.
        public var serverLoginRetrySeconds: Int?
        /// The `pgbouncer` executable; nil searches `PATH`, `/usr/sbin` and Homebrew's prefixes.
        public var executable: String?
        /// The account to run as when this process is root; nil means `postgres`, else `nobody`.
        public var unprivilegedUser: String?

        /// Transaction pooling on port 6432.
        public init() {}
    }

    /// The pooler's directory: its settings, log, pid file and socket.
    public let directory: URL
    /// The settings.
    public let options: Options
    private let server: EmbeddedPostgres
    private let logger: Logger
    /// The running executable's `major.minor`, read by ``start()``: the signal of an immediate
    /// shutdown changed in 1.23.
    let version = NIOLockedValueBox<(Int, Int)?>(nil)

    /// Describes a pooler in front of `server`; nothing happens on disk until ``start()``.
    ///
    /// - Parameters:
    ///   - directory: The pooler's directory, created when missing; keep its path short (the
    ///     socket's path must fit a unix socket address).
    ///   - server: The cluster behind it.
    ///   - options: The settings.
    ///   - logger: Receives debug messages.
    public init(directory: URL, server: EmbeddedPostgres, options: Options = Options(), logger: Logger) {
        self.directory = directory.standardizedFileURL
        self.server = server
        self.options = options
        self.logger = logger
    }

    /// Connects through the pooler to the cluster's `postgres` database as its superuser;
    /// marked as a transaction pooler unless the pool mode is `session`.
    public var configuration: PostgresConfiguration {
        var configuration = PostgresConfiguration(
            unixSocketDirectory: directory.path, port: options.port, user: server.options.superuser, database: "postgres")
        configuration.usesTransactionPooler = options.poolMode != .session
        return configuration
    }

    var pidFile: String { directory.appendingPathComponent("pgbouncer.pid").path }
    private var logFile: String { directory.appendingPathComponent("pgbouncer.log").path }
    private var socketFile: String { directory.appendingPathComponent(".s.PGSQL.\(options.port)").path }

    /// Writes the settings, starts PgBouncer and waits until its socket accepts connections.
    ///
    /// - Throws: ``EmbeddedPostgresError`` when PgBouncer is not installed, the directory cannot
    ///   be prepared, or PgBouncer does not come up.
    public func start() async throws {
        let executable = try Self.locate(explicit: options.executable)
        if let reported = try? await ChildProcess.run(executable, ["--version"]), let found = Self.version(in: reported.output) {
            version.withLockedValue { $0 = found }
        }
        let account = try ServerAccount.resolve(preferred: options.unprivilegedUser)
        try writeSettings(owner: account)
        let command = (account?.launcherPrefix ?? []) + [executable, "-d", settingsFile]
        let outcome = try await ChildProcess.run(command[0], Array(command.dropFirst()), workingDirectory: directory.path)
        guard outcome.status == 0 else {
            throw EmbeddedPostgresError.commandFailed(command: "pgbouncer", status: outcome.status, output: outcome.output + log)
        }
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socketFile) {
            try await Task.sleep(for: .milliseconds(50))
        }
        guard FileManager.default.fileExists(atPath: socketFile) else {
            throw EmbeddedPostgresError.commandFailed(command: "pgbouncer", status: -1, output: "no socket after 10 s\n" + log)
        }
        logger.debug("PgBouncer running", metadata: ["db.pooler_directory": "\(directory.path)"])
    }

    private var settingsFile: String { directory.appendingPathComponent("pgbouncer.ini").path }

    /// PgBouncer's log as it reads now (empty before it first started): what it did with its
    /// clients and servers, and the signals it took.
    public var logText: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// The log's last lines, for an error message.
    private var log: String {
        logText.split(whereSeparator: \.isNewline).suffix(10).joined(separator: "\n")
    }

    private func writeSettings(owner: ServerAccount?) throws {
        let settings = """
            [databases]
            * = host=\(server.listeningSocketDirectory) port=\(server.options.port) user=\(server.options.superuser)

            [pgbouncer]
            unix_socket_dir = \(directory.path)
            listen_port = \(options.port)
            auth_type = trust
            auth_file = \(directory.appendingPathComponent("userlist.txt").path)
            pool_mode = \(options.poolMode.rawValue)
            default_pool_size = \(options.serverConnections)
            max_client_conn = \(options.maxClientConnections)
            logfile = \(logFile)
            pidfile = \(pidFile)

            """
            + (options.queryWaitTimeoutSeconds.map { "query_wait_timeout = \($0)\n" } ?? "")
            + (options.serverLoginRetrySeconds.map { "server_login_retry = \($0)\n" } ?? "")
        let users = "\"\(server.options.superuser)\" \"\"\n"
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
            try Data(settings.utf8).write(to: URL(fileURLWithPath: settingsFile))
            try Data(users.utf8).write(to: directory.appendingPathComponent("userlist.txt"))
        } catch {
            throw EmbeddedPostgresError.fileSystem(path: directory.path, reason: "\(error.localizedDescription)")
        }
        try owner?.takeOwnership(of: directory.path)
    }

    private static func locate(explicit: String?) throws -> String {
        let path: [String] = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { $0 + "/pgbouncer" }
        let usual = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/opt/homebrew/bin/pgbouncer", "/usr/local/bin/pgbouncer"]
        let candidates: [String] = explicit.map { [$0] } ?? path + usual
        guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw EmbeddedPostgresError.commandFailed(
                command: "pgbouncer", status: -1,
                output: "error: not found in \(candidates.joined(separator: ", ")); install it (scripts/install-deps.sh)")
        }
        return found
    }
}
