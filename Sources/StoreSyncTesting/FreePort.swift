import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 that nothing listens on right now: the kernel picks it for a socket
/// bound to port 0, which is closed again before the server binds it.
public enum FreePort {
    /// Finds a free port.
    ///
    /// - Returns: A port number nothing listens on at the moment of the call.
    /// - Throws: ``FreePortError`` when the kernel refuses the socket calls.
    public static func find() throws -> Int {
        #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw FreePortError(operation: "socket()", errno: errno) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw FreePortError(operation: "bind() to port 0", errno: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
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
