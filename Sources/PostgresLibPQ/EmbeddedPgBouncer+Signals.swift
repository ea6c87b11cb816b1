internal import Foundation
internal import NIOConcurrencyHelpers
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

extension EmbeddedPgBouncer {
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

    /// The pid a pid file names, if it names one.
    static func pid(inFile path: String) -> pid_t? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1
        else { return nil }
        return pid
    }
}
