public import Foundation
public import Logging
internal import NIOConcurrencyHelpers

/// A private PostgreSQL cluster in a directory of your choice, listening on a unix socket only.
///
/// `start()` runs initdb the first time, then starts the server and waits until it accepts
/// connections; `stop()` shuts it down and keeps the data for the next `start()`. There is no
/// TCP port, and no password: the server authenticates each connection by the operating-system
/// user on the other end of the socket (`peer`), and only the user that starts the cluster may
/// connect, as superuser `postgres`. When this process is root, PostgreSQL (which refuses to run
/// as root) runs as the `postgres` account, or `nobody`, which gets the directory; root still
/// is the one user that may connect.
///
/// Nothing someone else prepared is adopted: the cluster, data and socket directories are
/// created private (0700), and one that already exists must belong to this process's user or
/// the server's account and be closed to everybody else, or ``start()`` refuses it.
///
/// Layout: `<directory>/data` (the cluster), `<directory>/server.log`, and the socket in
/// `<directory>/socket`, or — when that path would exceed the unix socket limit — in a fresh
/// directory with an unpredictable name under `/tmp` (`mkdtemp`), removed with this object.
public final class EmbeddedPostgres: Sendable {
    /// Settings for the cluster.
    public struct Options: Sendable, Hashable {
        /// The port; with no TCP listener it only names the socket file `.s.PGSQL.<port>`.
        public var port: Int = 5432
        /// Where the socket goes; nil picks `<directory>/socket`, or a fresh directory under `/tmp`.
        public var socketDirectory: URL?
        /// The superuser role created by initdb.
        public var superuser: String = "postgres"
        /// Whether to flush to disk; turn it off only for throwaway clusters (tests).
        public var durable: Bool = true
        /// The server's connection limit.
        public var maxConnections: Int = 100
        /// The server's shared buffer size, in PostgreSQL's notation; PostgreSQL's own default.
        public var sharedBuffers: String = "128MB"
        /// The directory of initdb and pg_ctl; nil searches the usual places.
        public var binDirectory: URL?
        /// The account to run as when this process is root; nil means `postgres`, else `nobody`.
        public var unprivilegedUser: String?
        /// Further `postgresql.conf` settings, written verbatim as `name = 'value'`.
        public var settings: [String: String] = [:]

        /// The defaults: durable, 100 connections, port 5432.
        public init() {}

        /// Settings for throwaway test clusters: no fsync, room for many parallel suites.
        public static var forTesting: Options {
            var options = Options()
            options.durable = false
            options.maxConnections = 300
            options.sharedBuffers = "64MB"
            return options
        }
    }

    /// The cluster's directory.
    public let directory: URL
    /// The settings.
    public let options: Options
    let logger: Logger
    let socketDirectory: String
    /// Whether ``socketDirectory`` was made for this object (under `/tmp`) and goes with it.
    private let ownsSocketDirectory: Bool
    let lifecycle = NIOLockedValueBox<Task<Void, any Error>?>(nil)
    /// Held while this object answers for the running server (it started it, or adopted one a
    /// crashed process left); `nil` while another process or object does, and then ``stop()``
    /// leaves the server running.
    let ownership = NIOLockedValueBox<ClusterLock?>(nil)
    /// The socket directory of the running server: ``socketDirectory``, unless the server was
    /// found running on another one (an earlier process's directory under `/tmp`).
    let socketInUse: NIOLockedValueBox<String>

    /// Describes a cluster; nothing happens on disk until ``start()``.
    ///
    /// - Parameters:
    ///   - directory: The cluster's directory, created when missing.
    ///   - options: The settings.
    ///   - logger: Receives debug messages about initdb, start and stop.
    public init(directory: URL, options: Options = Options(), logger: Logger) {
        self.directory = directory.standardizedFileURL
        self.options = options
        self.logger = logger
        (socketDirectory, ownsSocketDirectory) = Self.socketDirectory(for: self.directory, options: options)
        socketInUse = NIOLockedValueBox(socketDirectory)
    }

    deinit {
        // Removes only an empty directory: never a socket a running server still listens on.
        if ownsSocketDirectory { rmdir(socketDirectory) }
    }

    /// Connects to the cluster's `postgres` database as the superuser, over the socket.
    public var configuration: PostgresConfiguration {
        PostgresConfiguration(
            unixSocketDirectory: listeningSocketDirectory, port: options.port, user: options.superuser,
            database: "postgres")
    }

    /// Where the running server's socket is: ``socketDirectory``, or the one a server found
    /// running listens in.
    var listeningSocketDirectory: String { socketInUse.withLockedValue { $0 } }

    /// The data directory, `<directory>/data`.
    public var dataDirectory: URL { directory.appendingPathComponent("data") }

    /// Initialises the cluster if needed, starts it, and waits until it accepts connections.
    ///
    /// Does nothing when the cluster already runs; concurrent calls share one start.
    ///
    /// - Throws: ``EmbeddedPostgresError`` naming what failed (missing binaries, a directory
    ///   the server account cannot reach, initdb or pg_ctl output).
    public func start() async throws {
        let task = lifecycle.withLockedValue { current -> Task<Void, any Error> in
            if let current { return current }
            let task = Task { try await self.performStart() }
            current = task
            return task
        }
        do {
            try await task.value
        } catch {
            lifecycle.withLockedValue { if $0 == task { $0 = nil } }
            throw error
        }
    }

    /// How `pg_ctl stop` shuts the server down.
    public enum ShutdownMode: String, Sendable, Hashable, CaseIterable {
        /// Sessions are disconnected, open transactions roll back, a checkpoint is written.
        case fast
        /// Every process quits at once, as in a crash; the next start replays the WAL.
        case immediate
    }

    /// Stops the cluster (a fast shutdown unless told otherwise); the data stays.
    ///
    /// Does nothing when the cluster does not run, or when another process (or another object)
    /// answers for it: ``start()`` found it running and in use, so it stays up for its owner.
    ///
    /// - Parameter mode: ``ShutdownMode/fast``, or ``ShutdownMode/immediate`` to simulate a crash.
    /// - Throws: ``EmbeddedPostgresError`` when pg_ctl fails.
    public func stop(mode: ShutdownMode = .fast) async throws {
        let started = lifecycle.withLockedValue { current -> Task<Void, any Error>? in
            defer { current = nil }
            return current
        }
        _ = try? await started?.value
        try await performStop(mode: mode)
    }

    /// The socket directory, and whether it was made here. A path that would not fit a unix
    /// socket address gets a directory under `/tmp` made by `mkdtemp`: a name nobody can
    /// predict, created private, so nobody can prepare it beforehand.
    private static func socketDirectory(for directory: URL, options: Options) -> (String, Bool) {
        if let explicit = options.socketDirectory { return (explicit.standardizedFileURL.path, false) }
        let preferred = directory.appendingPathComponent("socket").path
        // sockaddr_un.sun_path holds 108 bytes (104 on macOS), terminator included.
        if (preferred + "/.s.PGSQL.\(options.port)").utf8.count <= 100 { return (preferred, false) }
        var template = Array("/tmp/storesync-sock-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            // PostgreSQL then refuses the long path with its own message.
            return (preferred, false)
        }
        return (String(cString: made), true)
    }
}
