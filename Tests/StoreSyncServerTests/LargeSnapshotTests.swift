import Crypto
import Foundation
import PostgresLibPQ
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncCore
import StoreSyncTesting
import StoreSyncWire
import Testing

/// A long history's snapshot (over a megabyte) is signed where it is written and sent in parts:
/// through the whole server, from the database and from the cache, it must arrive whole, with
/// its length, and with a signature over exactly its canonical bytes.
@Suite struct LargeSnapshotTests {
    @Test func aSnapshotOverAMegabyteArrivesWholeAndSignedFromTheDatabaseAndFromTheCache() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let versions: [(accountId: UUID, record: TransactionRecord)] = (0..<3_000).map { index in
                let record = TestPurchases.record(
                    id: String(6_000_000_000_000 + index), purchased: now.addingTimeInterval(-Double(index)))
                return (account.accountId, record)
            }
            _ = try await server.database.withConnection { try await TransactionRepository().insert(versions, on: $0) }
            let key = try Curve25519.Signing.PublicKey(
                rawRepresentation: try #require(Data(base64Encoded: server.signingPublicKey)))

            var bodies: [Data] = []
            for _ in 0..<2 {
                let response = try await server.send("GET", "/v1/entitlements", token: account.token)
                #expect(response.status == 200)
                #expect(response.header("Content-Length") == String(response.body.count))
                #expect(response.body.count > 1 << 20, "large enough to be sent in parts")
                let snapshot = try StoreSyncJSON.makeDecoder().decode(Snapshot.self, from: response.body)
                #expect(snapshot.transactions.count == versions.count)
                let signature = try #require(Data(base64Encoded: snapshot.signature))
                #expect(key.isValidSignature(signature, for: try snapshot.signedBytes()))
                bodies.append(response.body)
            }
            #expect(bodies[0] == bodies[1], "the cached copy is the body the database's answer sent")
        }
    }
}
