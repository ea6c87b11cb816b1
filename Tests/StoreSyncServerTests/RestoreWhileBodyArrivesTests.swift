import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

/// A restore reads what the account holds as soon as its request starts, while its body is
/// still arriving. What the account gains meanwhile must not be missed: the restore's
/// transaction starts from that early read only when the account's version has not moved.
@Suite struct RestoreWhileBodyArrivesTests {
    @Test func aPurchaseStoredWhileTheBodyArrivesIsSeenByTheRestore() async throws {
        try await withLiveServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let restored = TestPurchases.record(TestCatalog.coins, type: .consumable, purchased: now)
            let meanwhile = TestPurchases.record(purchased: now)
            // The second entry has no signed text: only the account's stored rows can confirm
            // it, so its verdict shows whether the restore saw the purchase stored meanwhile.
            let body = try StoreSyncJSON.makeEncoder().encode(RestoreRequest(
                entries: [.record(server.entry(restored)), .record(meanwhile)], userInitiated: true))
            let versionBefore = try await server.snapshot(token: account.token).version
            let head = "POST /v1/restore HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(account.token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            let half = body.count / 2
            let (halfSent, bodyHalfSent) = AsyncStream.makeStream(of: Void.self)
            // Waited for on the connection's own thread, never on the cooperative pool, which
            // the server under test runs on too.
            let purchaseStored = DispatchSemaphore(value: 0)

            async let exchange = RawHTTPConnection.run(port: server.port) { connection in
                try connection.transmit(head + String(decoding: body.prefix(half), as: UTF8.self))
                bodyHalfSent.yield()
                purchaseStored.wait()
                try connection.transmit(String(decoding: body.dropFirst(half), as: UTF8.self))
                return try connection.readResponse()
            }
            for await _ in halfSent { break }
            // Long enough for the server to have started the request and read the holdings.
            try await Task.sleep(for: .milliseconds(200))
            _ = try await server.buy(meanwhile, token: account.token)
            purchaseStored.signal()
            let response = try await exchange

            #expect(response.head.hasPrefix("HTTP/1.1 200"), "\(response.head)")
            let answer = try StoreSyncJSON.makeDecoder().decode(SyncResponse.self, from: response.body)
            #expect(answer.verdicts.map(\.verdict) == [.accepted, .known])
            #expect(Set(answer.snapshot.transactions.map(\.transactionId)) == [restored.transactionId, meanwhile.transactionId])
            #expect(answer.snapshot.version == versionBefore + 2)
        }
    }
}
