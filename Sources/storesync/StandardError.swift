#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard error, written so that a failed write never ends the process.
///
/// `FileHandle.write(_:)` traps on Linux when the write fails, and a server's standard error
/// can fail under it: a log pipe whose reader went away (NIO ignores SIGPIPE, so the write
/// fails with EPIPE instead of killing the process), a restarted journald, a full disk. A log
/// line that cannot be written is lost; the server and the requests it answers are not.
enum StandardError {
    /// Writes `text` whole, retrying after interruptions and partial writes; gives up silently
    /// on any other failure.
    ///
    /// - Parameter text: The bytes to write, as UTF-8.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    #if canImport(Glibc)
    private static let systemWrite = Glibc.write
    #elseif canImport(Darwin)
    private static let systemWrite = Darwin.write
    #endif
}
