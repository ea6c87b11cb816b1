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

    /// The payload of a signed transaction is read before its signature is checked (its
    /// `signedDate` picks the certificates' validity): extreme numbers there are bad input.
    @Test(arguments: ["-9223372036854775808", "9223372036854775807", "-9007199254740993"])
    func aForgedTransactionWithAnExtremeDateIsRefusedAndChangesNothing(milliseconds: String) async throws {
        try await withServer { server in
            let session = try await server.signUp()
            let header = AppStoreTestSigner.base64URL(Data(#"{"alg":"ES256"}"#.utf8))
            let payload = AppStoreTestSigner.base64URL(Data("{\"signedDate\":\(milliseconds)}".utf8))
            let forged = "\(header).\(payload).AA"

            let upload = try await server.send(
                "POST", "/v1/transactions", token: session.token, json: UploadTransactionRequest(signedTransaction: forged))
            #expect((400..<500).contains(upload.status))
            let restore = try await server.send(
                "POST", "/v1/restore", token: session.token,
                json: RestoreRequest(entries: [RestoreEntry.signedTransaction(forged)]))
            #expect(restore.status == 200)
            #expect(try restore.decode(SyncResponse.self).verdicts.map(\.verdict) == [.rejected])
            #expect(try await server.count("transactions") == 0)
            #expect(try await server.send("GET", "/v1/entitlements", token: session.token).status == 200)
        }
    }
}
