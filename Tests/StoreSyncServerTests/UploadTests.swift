import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct UploadTests {
    @Test func signedNonConsumableIsAcceptedThenKnownAndGrantsPremium() async throws {
        let server = try await TestApp.start()
        let session = try await server.signUp()
        let purchase = TestPurchases.record(purchased: server.clock.now())
        let jws = server.signer.signTransaction(purchase)

        let first = try await server.send(
            "POST", "/v1/transactions", token: session.token, json: UploadTransactionRequest(signedTransaction: jws))
        #expect(first.status == 200)
        let firstBody = try first.decode(SyncResponse.self)
        #expect(firstBody.verdicts.map(\.verdict) == [.accepted])
        #expect(firstBody.snapshot.entitlements.map(\.entitlementId) == ["premium"])
        #expect(firstBody.snapshot.version == 2)

        let again = try await server.send(
            "POST", "/v1/transactions", token: session.token, json: UploadTransactionRequest(signedTransaction: jws))
        let againBody = try again.decode(SyncResponse.self)
        #expect(again.status == 200)
        #expect(againBody.verdicts.map(\.verdict) == [.known])
        #expect(againBody.snapshot.version == 2)
        await server.stop()
    }
}
