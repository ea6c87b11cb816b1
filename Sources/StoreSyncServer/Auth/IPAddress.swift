#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as its bytes in network order: 4 for IPv4, 16 for IPv6.
///
/// An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, how a dual-stack socket reports an IPv4
/// peer) is read as the IPv4 address it carries, so one client has one form whichever socket
/// it reached.
struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    let bytes: [UInt8]

    /// Parses the textual forms `inet_pton` accepts; `nil` for anything else (host names, zones, ports).
    init?(_ text: some StringProtocol) {
        let text = String(text)
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let all = withUnsafeBytes(of: &v6) { Array($0) }
        let isMappedV4 = all[0..<10].allSatisfy { $0 == 0 } && all[10] == 0xFF && all[11] == 0xFF
        bytes = isMappedV4 ? Array(all[12...]) : all
    }

    /// Whether this is an IPv4 address.
    var isV4: Bool { bytes.count == 4 }

    /// The network one client is taken to control, as text: an IPv4 address itself, an IPv6
    /// address's /64 (`2001:db8:1:2::/64`). A host is normally given a whole /64 and may send
    /// from any address in it, so counting IPv6 addresses one by one would give one client
    /// 2^64 windows of the per-address limits.
    var clientNetwork: String {
        guard !isV4 else { return description }
        let prefix = IPAddress(bytes: Array(bytes[0..<8]) + Array(repeating: 0, count: 8))
        return "\(prefix)/64"
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The canonical text: dotted quad, or RFC 5952 IPv6.
    var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = isV4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
