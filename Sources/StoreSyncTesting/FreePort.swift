import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 that nothing listens on right now, for a server a test starts.
///
/// The port is drawn at random from below the kernel's ephemeral range (32768 and up on Linux
/// and macOS) and checked by binding it: a port the kernel picked for a socket bound to port 0
/// lies inside that range, and once that socket closes the kernel may hand the same port to an
/// outgoing connection of a test running in parallel before the server binds it.
public enum FreePort {
    /// The ports handed out: registered ports no system service of a test machine listens on,
    /// all below the ephemeral range.
    static let candidates = 20_000..<32_768

    /// Finds a free port.
    ///
    /// - Returns: A port number nothing listens on at the moment of the call.
    /// - Throws: ``FreePortError`` when the kernel refuses the socket calls or no candidate binds.
    public static func find() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: candidates)
            if try binds(port) { return port }
        }
        throw FreePortError(operation: "bind() to any port in \(candidates)", errno: EADDRINUSE)
    }

    /// Whether a socket can bind `port` on 127.0.0.1 right now.
    private static func binds(_ port: Int) throws -> Bool {
        #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw FreePortError(operation: "socket()", errno: errno) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 }
        }
    }
}

/// Why no free port could be found.
public struct FreePortError: Error, CustomStringConvertible {
    /// The system call that failed.
    public let operation: String
    /// Its `errno`.
    public let errno: Int32

    public var description: String { "could not find a free port: \(operation) failed with errno \(errno)" }
}
