import Foundation

/// The proxies (load balancers) allowed to name the client of a request in `X-Forwarded-For`,
/// `STORESYNC_TRUSTED_PROXIES`.
///
/// Only the TCP peer is known for certain. When it is a trusted proxy, the header is read from
/// its right end, the hop that proxy appended: each trusted address there is one more proxy,
/// and the first address that is not trusted is the client. Everything to its left was written
/// by the client itself and is never believed. With no trusted proxies — the default — the
/// header is ignored and the peer is the client: a client cannot pick its own address, and so
/// cannot escape the per-address sign-in limits.
public struct TrustedProxies: Sendable, Hashable {
    private let ranges: [NetworkRange]

    /// No trusted proxies: every request's client is its TCP peer.
    public init() {
        ranges = []
    }

    /// Parses a comma-separated list of addresses and CIDR blocks (`10.0.0.0/8, 2001:db8::/32`).
    ///
    /// - Parameter list: The setting's value.
    /// - Returns: `nil` when any element is not an address or a block.
    public init?(list: String) {
        var ranges: [NetworkRange] = []
        for element in list.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = element.trimmingCharacters(in: .whitespaces)
            guard let range = NetworkRange(trimmed) else { return nil }
            ranges.append(range)
        }
        guard !ranges.isEmpty else { return nil }
        self.ranges = ranges
    }

    /// Whether no proxy is trusted.
    public var isEmpty: Bool { ranges.isEmpty }

    /// The address a request comes from, in canonical form: the throttles' per-address key.
    ///
    /// - Parameters:
    ///   - peer: The TCP peer's address, `nil` when the connection has none (a unix socket, a test).
    ///   - forwardedFor: The values of every `X-Forwarded-For` field, in the order received.
    /// - Returns: The client's address, or `nil` when even the peer is unknown.
    func clientAddress(peer: String?, forwardedFor: [String]) -> String? {
        guard let peer else { return nil }
        guard var client = IPAddress(peer) else { return peer }
        guard isTrusted(client) else { return client.description }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
        for hop in hops.reversed() {
            // Text that is no address was not written by a trusted proxy: the hop that passed
            // it on is the last one known, and counts as the client.
            guard let address = Self.address(inHop: hop) else { break }
            client = address
            if !isTrusted(address) { break }
        }
        return client.description
    }

    /// Whether a request's TCP peer is a trusted proxy.
    ///
    /// - Parameter peer: The peer's address, `nil` when the connection has none.
    func trusts(peer: String?) -> Bool {
        guard let peer, let address = IPAddress(peer) else { return false }
        return isTrusted(address)
    }

    private func isTrusted(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// One hop of the header: an address, possibly with a port (`192.0.2.1:443`, `[2001:db8::1]:443`).
    private static func address(inHop hop: Substring) -> IPAddress? {
        let text = hop.trimmingCharacters(in: .whitespaces)
        if let address = IPAddress(text) { return address }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            return IPAddress(text[text.index(after: text.startIndex)..<close])
        }
        if let colon = text.firstIndex(of: ":"), text.firstIndex(of: ":") == text.lastIndex(of: ":") {
            return IPAddress(text[..<colon])
        }
        return nil
    }
}
