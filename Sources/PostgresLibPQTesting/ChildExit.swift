public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Waiting for a `Process` a test started, without trusting Foundation alone to notice it ended.
///
/// On Linux, Foundation's `waitUntilExit` has been seen never to return for a child that had
/// ended (left a zombie nobody reaped), and a test blocked in it holds one of the few threads
/// every other test needs: the whole suite stalled. So the exit is also looked for directly
/// (`waitid` with `WNOWAIT`, which reaps nothing); a child that has ended and that Foundation has
/// not seen within two seconds is reaped here.
public enum ChildExit {
    /// Waits until `process` has ended and answers its exit status (128 + the signal for one a
    /// signal ended). Blocks the calling thread; from async code use ``status(of:within:)``.
    ///
    /// - Parameter process: A process that was started.
    /// - Returns: Its exit status.
    public static func wait(for process: Process) -> Int32 {
        var watch = Watch(process: process)
        while true {
            if let status = watch.poll() { return status }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Waits at most `limit` for `process` to end, sleeping between looks rather than holding a
    /// thread.
    ///
    /// - Parameters:
    ///   - process: A process that was started.
    ///   - limit: How long to wait.
    /// - Returns: Its exit status (as ``wait(for:)``), or nil if it still runs after `limit`.
    public static func status(of process: Process, within limit: Duration) async -> Int32? {
        var watch = Watch(process: process)
        let deadline = ContinuousClock.now + limit
        while true {
            if let status = watch.poll() { return status }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// One child's exit as Foundation or the kernel reports it, whichever sees it first.
    private struct Watch {
        let process: Process
        /// When the kernel first said the child had ended and Foundation did not.
        var unseenSince: ContinuousClock.Instant?

        mutating func poll() -> Int32? {
            if !process.isRunning {
                return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
            }
            #if canImport(Glibc)
            let pid = process.processIdentifier
            var info = siginfo_t()
            guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid else {
                return nil
            }
            let since = unseenSince ?? .now
            unseenSince = since
            guard ContinuousClock.now - since > .seconds(2) else { return nil }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            let signal = status & 0x7f
            return signal == 0 ? (status >> 8) & 0xff : 128 + signal
            #else
            return nil
            #endif
        }
    }
}
