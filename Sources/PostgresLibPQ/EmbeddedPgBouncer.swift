public import Foundation
public import Logging
internal import NIOConcurrencyHelpers
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

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
    private let version = NIOLockedValueBox<(Int, Int)?>(nil)

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

    private var pidFile: String { directory.appendingPathComponent("pgbouncer.pid").path }
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

    /// How PgBouncer is told to stop.
    public enum ShutdownMode: String, Sendable, Hashable, CaseIterable {
        /// Lets the transactions under way end, holding new ones back, then closes every
        /// connection (`SIGINT`: PgBouncer's `PAUSE`, then `SHUTDOWN`).
        case safe
        /// Closes every connection at once, transactions under way included: `SIGTERM` before
        /// PgBouncer 1.23, `SIGQUIT` from it (where `SIGTERM` waits for every client to leave).
        case immediate
    }

    /// Stops PgBouncer and waits for it to exit, killing it when it has not after ten seconds.
    /// It can be started again with ``start()``, on the same socket.
    ///
    /// - Parameter mode: ``ShutdownMode/immediate`` by default.
    public func stop(mode: ShutdownMode = .immediate) async {
        guard let pid = Self.pid(inFile: pidFile) else { return }
        kill(pid, signal(for: mode))
        for _ in 0..<200 where Self.isRunning(pid) {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if Self.isRunning(pid) { kill(pid, SIGKILL) }
    }

    /// Holds every client's next query until ``resume()`` (`SIGUSR1`, PgBouncer's `PAUSE`): the
    /// transactions under way end, the pooler lets go of its server connections, and queries
    /// wait, failing after `query_wait_timeout`. What an operator does around PostgreSQL's
    /// maintenance.
    public func pause() {
        if let pid = Self.pid(inFile: pidFile) { kill(pid, SIGUSR1) }
    }

    /// Lets the queries a ``pause()`` held go on (`SIGUSR2`, PgBouncer's `RESUME`).
    public func resume() {
        if let pid = Self.pid(inFile: pidFile) { kill(pid, SIGUSR2) }
    }

    /// The signal that asks the running PgBouncer for `mode`.
    func signal(for mode: ShutdownMode) -> Int32 {
        switch mode {
        case .safe: SIGINT
        case .immediate: version.withLockedValue { $0 ?? (1, 0) } >= (1, 23) ? SIGQUIT : SIGTERM
        }
    }

    /// `major.minor` from `pgbouncer --version` (its first line reads `PgBouncer 1.18.0`).
    static func version(in output: String) -> (Int, Int)? {
        guard let line = output.split(whereSeparator: \.isNewline).first,
            let number = line.split(separator: " ").dropFirst().first
        else { return nil }
        let parts = number.split(separator: ".").prefix(2).compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    /// Whether `pid` is a live process (a zombie, exited but not yet reaped by its parent, is not).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return !(status.split(separator: ")").last?.hasPrefix(" Z") ?? false)
    }

    /// Starts a throwaway pooler for this process in front of `server`, stopped and removed
    /// when the process exits.
    ///
    /// - Parameters:
    ///   - prefix: The directory name's prefix; the directory is `<temporary directory>/<prefix>-<pid>`.
    ///   - server: The cluster behind it.
    ///   - options: The settings.
    ///   - logger: Receives debug messages.
    /// - Returns: The running pooler.
    /// - Throws: What ``start()`` throws.
    public static func temporary(
        prefix: String, server: EmbeddedPostgres, options: Options = Options(), logger: Logger
    ) async throws -> EmbeddedPgBouncer {
        let parent = FileManager.default.temporaryDirectory.standardizedFileURL
        TemporaryPoolers.removeAbandoned(in: parent, prefix: prefix)
        let directory = parent.appendingPathComponent("\(prefix)-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        let pooler = EmbeddedPgBouncer(directory: directory, server: server, options: options, logger: logger)
        TemporaryPoolers.register(pidFile: pooler.pidFile, directory: directory.path) { pooler.signal(for: .immediate) }
        try await pooler.start()
        return pooler
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

    static func pid(inFile path: String) -> pid_t? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1
        else { return nil }
        return pid
    }
}

/// Poolers to stop and delete when the process exits.
enum TemporaryPoolers {
    private typealias Entry = (pidFile: String, directory: String, immediateStop: @Sendable () -> Int32)
    private static let entries = NIOLockedValueBox<[Entry]>([])
    private static let installHook: Void = {
        atexit {
            TemporaryPoolers.destroyAll()
        }
    }()

    /// - Parameter immediateStop: The signal of an immediate shutdown for this pooler's version.
    static func register(pidFile: String, directory: String, immediateStop: @escaping @Sendable () -> Int32) {
        _ = installHook
        entries.withLockedValue { $0.append((pidFile, directory, immediateStop)) }
    }

    private static func destroyAll() {
        for entry in entries.withLockedValue({ $0 }) {
            destroy(pidFile: entry.pidFile, directory: entry.directory, signal: entry.immediateStop())
        }
    }

    /// Sends PgBouncer `signal` and waits up to two seconds for it to go (it writes its log as it
    /// leaves), then deletes the directory. `SIGTERM`, an abandoned pooler's, stops every
    /// version at once when, as there, no client is left.
    private static func destroy(pidFile: String, directory: String, signal: Int32 = SIGTERM) {
        if let pid = EmbeddedPgBouncer.pid(inFile: pidFile), kill(pid, signal) == 0 {
            for _ in 0..<40 where EmbeddedPgBouncer.isRunning(pid) {
                usleep(50_000)
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops and deletes the `<prefix>-<pid>` poolers of processes that are gone (crashed, killed).
    static func removeAbandoned(in parent: URL, prefix: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(prefix + "-") {
            guard let owner = Int32(name.dropFirst(prefix.count + 1)), owner != getpid() else { continue }
            if kill(owner, 0) == 0 || errno == EPERM { continue }
            let directory = parent.appendingPathComponent(name).path
            destroy(pidFile: directory + "/pgbouncer.pid", directory: directory)
        }
    }
}
