public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Waiting for a `Process` a test started, without trusting Foundation alone to notice it ended.
public enum ChildExit {
    /// Waits until `process` has ended and answers its exit status (128 + the signal for one a
    /// signal ended).
    ///
    /// On Linux, Foundation's `waitUntilExit` has been seen never to return for a child that had
    /// ended (left a zombie nobody reaped), and a test blocked in it holds one of the few
    /// threads every other test needs: the whole suite stalled. So the exit is also looked for
    /// directly (`waitid` with `WNOWAIT`, which reaps nothing); a child that has ended and that
    /// Foundation has not seen within two seconds is reaped here.
    ///
    /// - Parameter process: A process that was started.
    /// - Returns: Its exit status.
    public static func wait(for process: Process) -> Int32 {
        let pid = process.processIdentifier
        var unseenSince: Date?
        while process.isRunning {
            #if canImport(Glibc)
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid {
                let since = unseenSince ?? Date()
                unseenSince = since
                if Date().timeIntervalSince(since) > 2 {
                    var status: Int32 = 0
                    if waitpid(pid, &status, WNOHANG) == pid {
                        let signal = status & 0x7f
                        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
                    }
                }
            }
            #endif
            Thread.sleep(forTimeInterval: 0.01)
        }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
}
