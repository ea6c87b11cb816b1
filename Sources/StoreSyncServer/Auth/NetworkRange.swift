/// A block of addresses in CIDR notation (`10.0.0.0/8`, `fd00::/8`); a bare address is a
/// block of one.
struct NetworkRange: Hashable, Sendable, CustomStringConvertible {
    let network: IPAddress
    let prefixLength: Int

    /// Parses `address` or `address/prefix`; `nil` when either part is invalid.
    init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let network = IPAddress(parts[0]) else { return nil }
        let maximum = network.bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...maximum).contains(length) else { return nil }
            // `::ffff:10.0.0.0/104` names the IPv4 block `10.0.0.0/8`.
            let mappedAdjustment = parts[0].contains(":") && network.isV4 ? 96 : 0
            guard length >= mappedAdjustment else { return nil }
            prefixLength = length - mappedAdjustment
        } else {
            prefixLength = maximum
        }
        self.network = network
    }

    /// Whether `address` lies in this block (an IPv4 address never lies in an IPv6 block).
    func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(network.bytes, address.bytes) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if mine & mask != theirs & mask { return false }
            remaining -= bits
        }
        return true
    }

    var description: String { "\(network)/\(prefixLength)" }
}
