internal import Foundation
public import Logging
internal import NIOConcurrencyHelpers
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

extension EmbeddedPgBouncer {
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
