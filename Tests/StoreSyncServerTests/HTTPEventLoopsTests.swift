import Foundation
import NIOCore
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// `HTTP_EVENT_LOOPS`: the number of NIO event loops serving HTTP.
@Suite struct HTTPEventLoopsTests {
    @Test func aGroupIsMadeOncePerCountWithThatManyLoops() {
        let one = HTTPEventLoops.group(threads: 1)
        #expect(one === HTTPEventLoops.group(threads: 1), "servers in one process share it")
        #expect(Array(one.makeIterator()).count == 1)
        let three = HTTPEventLoops.group(threads: 3)
        #expect(Array(three.makeIterator()).count == 3)
        #expect(three !== one)
    }

    @Test(arguments: [0, HTTPEventLoops.allowedCounts.upperBound + 1])
    func aCountOutsideTheRangeIsRefusedByName(count: Int) {
        var configuration = ServerConfiguration(bundleId: "com.example", environment: .sandbox)
        configuration.httpEventLoops = count
        #expect(throws: ConfigurationError.invalid(.httpEventLoops, "expected 1 to 256, got \(count)")) {
            try configuration.validate()
        }
    }

    /// A host with more cores than a server may be given loops starts with the most it may
    /// have, not with a refusal naming a setting nobody set.
    @Test func theDefaultIsOnePerCoreUpToTheLargestAllowed() throws {
        #expect(HTTPEventLoops.defaultCount(forCores: 2) == 2)
        #expect(HTTPEventLoops.defaultCount(forCores: 384) == HTTPEventLoops.allowedCounts.upperBound)
        var configuration = ServerConfiguration(bundleId: "com.example", environment: .sandbox)
        configuration.httpEventLoops = HTTPEventLoops.defaultCount(forCores: 512)
        try configuration.validate()
    }

    /// One event loop carries every connection: concurrent lookups and a purchase on separate
    /// connections all get their answers, and the lookups after the purchase see it.
    @Test func oneEventLoopServesConcurrentConnections() async throws {
        try await withLiveServer(configure: { $0.httpEventLoops = 1 }) { server in
            let account = try await server.signUp()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<24 {
                    group.addTask { try await server.send("GET", "/v1/entitlements", token: account.token).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 24))
            _ = try await server.buy(TestPurchases.record(purchased: server.clock.now()), token: account.token)
            #expect(try await server.entitlementIds(token: account.token) == ["premium"])
        }
    }
}
