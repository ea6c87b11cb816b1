import Foundation
@testable import StoreSyncServer
import Testing

/// Who the client of a request is, given the proxies trusted to say.
@Suite struct TrustedProxiesTests {
    @Test(arguments: [
        ("10.1.2.3", ["203.0.113.9"], "203.0.113.9"),
        ("10.1.2.3", ["198.51.100.1, 203.0.113.9"], "203.0.113.9"),
        ("10.1.2.3", ["203.0.113.9, 10.0.0.7"], "203.0.113.9"),
        ("10.1.2.3", ["203.0.113.9", "10.0.0.7"], "203.0.113.9"),
        ("10.1.2.3", ["10.0.0.8, 10.0.0.7"], "10.0.0.8"),
        ("10.1.2.3", ["not-an-address, 10.0.0.7"], "10.0.0.7"),
        ("10.1.2.3", ["[2001:db8::1]:443"], "2001:db8::1"),
        ("10.1.2.3", ["203.0.113.9:8443"], "203.0.113.9"),
        ("10.1.2.3", [], "10.1.2.3"),
        ("192.0.2.50", ["203.0.113.9"], "192.0.2.50"),
        ("::ffff:192.0.2.50", [], "192.0.2.50"),
        ("::ffff:10.1.2.3", ["203.0.113.9"], "203.0.113.9"),
    ])
    func theClientIsTheFirstUntrustedHopFromTheRight(peer: String, forwardedFor: [String], client: String) throws {
        let proxies = try #require(TrustedProxies(list: "10.0.0.0/8, fd00::/8"))
        #expect(proxies.clientAddress(peer: peer, forwardedFor: forwardedFor) == client)
    }

    @Test func withNoTrustedProxiesTheHeaderIsIgnored() {
        #expect(TrustedProxies().clientAddress(peer: "10.1.2.3", forwardedFor: ["203.0.113.9"]) == "10.1.2.3")
    }

    @Test(arguments: ["", "10.0.0.0/33", "not-a-network", "10.0.0.0/8,,", "fd00::/129", "10.0.0.0/-1"])
    func malformedListsAreRefused(list: String) {
        #expect(TrustedProxies(list: list) == nil)
    }

    @Test func rangesMatchByPrefix() throws {
        let range = try #require(NetworkRange("2001:db8::/32"))
        #expect(range.contains(try #require(IPAddress("2001:db8:ffff::1"))))
        #expect(!range.contains(try #require(IPAddress("2001:db9::1"))))
        #expect(!range.contains(try #require(IPAddress("10.0.0.1"))))
        let odd = try #require(NetworkRange("192.168.0.0/23"))
        #expect(odd.contains(try #require(IPAddress("192.168.1.255"))))
        #expect(!odd.contains(try #require(IPAddress("192.168.2.0"))))
    }

    @Test(arguments: [
        ("203.0.113.9", "203.0.113.9"),
        ("::ffff:203.0.113.9", "203.0.113.9"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:db8::", "2001:db8::/64"),
        ("::1", "::/64"),
    ])
    func aClientsNetworkIsItsIPv4AddressOrItsIPv6Slash64(address: String, network: String) throws {
        #expect(try #require(IPAddress(address)).clientNetwork == network)
    }
}
