import Foundation
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Finding 8: under `transfer`, two accounts holding one JWS must not bounce a purchase back and
/// forth without limit: a purchase that moved waits out a cool-down before it moves again, and
/// only a restore the user asks for moves anything.
@Suite("Adversarial: transfer ping-pong") struct TransferCooldownTests {
    static let cooldownSeconds = 6 * 3600

    @Test("A move back inside the cool-down answers ownedByOtherAccount with when it may move")
    func aPurchaseThatMovedWaitsBeforeMovingAgain() async throws {
        try await withLiveServer(configure: {
            $0.transferPolicy = .transfer
            $0.transferCooldownSeconds = Self.cooldownSeconds
        }) { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let purchase = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let id = purchase.record.originalTransactionId
            _ = try await server.upload(purchase.jws, token: x.token)
            let moved = try await server.restore([entry(purchase)], userInitiated: true, token: y.token)
            try #require(moved.verdicts.map(\.verdict) == [.transferred])
            let movedAt = server.clock.now()
            server.clock.advance(by: 60)
            let versionsBefore = try await server.versions()

            let back = try await server.send(
                "POST", "/v1/restore", token: x.token, json: RestoreRequest(entries: [entry(purchase)], userInitiated: true))

            try #require(back.status == 200)
            let verdicts = try #require((try JSONSerialization.jsonObject(with: back.body) as? [String: Any])?["verdicts"] as? [[String: Any]])
            #expect(verdicts.map { $0["verdict"] as? String } == ["ownedByOtherAccount"])
            let movableAt = try #require(verdicts.first?["movableAt"] as? String, "the verdict says when the purchase may move")
            let decoded = try StoreSyncJSON.makeDecoder().decode(Date.self, from: Data("\"\(movableAt)\"".utf8))
            #expect(decoded == movedAt.addingTimeInterval(TimeInterval(Self.cooldownSeconds)))
            #expect(try await server.owner(of: id) == y.accountId)
            #expect(try await server.versions() == versionsBefore, "a refused move changes nothing")
            #expect(try await server.events(of: id).filter { $0.kind == "ownershipTransferred" }.count == 2)

            server.clock.advance(by: TimeInterval(Self.cooldownSeconds))
            let later = try await server.restore([entry(purchase)], userInitiated: true, token: x.token)
            #expect(later.verdicts.map(\.verdict) == [.transferred], "after the cool-down the user may move it back")
            #expect(try await server.owner(of: id) == x.accountId)
        }
    }

    @Test("A client's restore() is not user-initiated unless the app says so")
    func aDefaultClientRestoreMovesNothing() async throws {
        try await withLiveServer(configure: { $0.transferPolicy = .transfer }) { server in
            let purchase = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let owner = TestDevice(server: server)
            let ownerSession = try await owner.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            _ = try await owner.client.record(signedTransaction: purchase.jws)
            let other = TestDevice(server: server)
            _ = try await other.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            _ = try? await other.client.record(signedTransaction: purchase.jws)

            let restored = try await other.client.restore()

            #expect(restored.verdicts.map(\.verdict) == [.ownedByOtherAccount])
            #expect(try await server.owner(of: purchase.record.originalTransactionId) == ownerSession.accountId)
        }
    }
}
