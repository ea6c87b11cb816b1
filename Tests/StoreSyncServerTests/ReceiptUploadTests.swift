import AppStoreVerification
import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Legacy receipts go through a local stand-in of Apple's verifyReceipt endpoints.
@Suite struct ReceiptUploadTests {
    private static func milliseconds(_ date: Date) -> String { String(date.millisecondsSince1970) }

    @Test func aVerifiedReceiptsEntriesAreStoredWithReceiptEvidenceAndGrant() async throws {
        let now = Date()
        let entry = ReceiptEntry(
            productId: TestCatalog.lifetime, transactionId: "2000000001", originalTransactionId: "2000000001",
            purchaseDateMs: Self.milliseconds(now.addingTimeInterval(-3600)))
        try await AppStoreReceiptStandIn.run(reply: { request in
            request.endpoint == .production
                ? .status(21007)
                : .receipt(bundleId: "com.example.storesync", environment: .sandbox, inApp: [entry])
        }) { standIn in
            try await withServer(configure: {
                $0.verifyReceiptURL = standIn.productionURL
                $0.verifyReceiptSandboxURL = standIn.sandboxURL
                $0.sharedSecret = "shared-secret"
            }) { server in
                let account = try await server.signUp()
                let response = try await server.uploadReceipt(token: account.token)
                #expect(response.status == 200, "\(response.problem?.detail ?? "")")
                let body = try response.decode(SyncResponse.self)
                #expect(body.verdicts.map(\.verdict) == [.accepted])
                #expect(body.snapshot.entitlements.map(\.entitlementId) == ["premium"])
                if case .receipt = body.snapshot.transactions.first?.evidence {} else {
                    Issue.record("the record's evidence is \(String(describing: body.snapshot.transactions.first?.evidence))")
                }
                let requests = await standIn.requests
                #expect(requests.map(\.endpoint) == [.production, .sandbox])
                #expect(requests.first?.password == "shared-secret")
            }
        }
    }

    @Test func aReceiptAppleRejectsIsA422AndChangesNothing() async throws {
        try await AppStoreReceiptStandIn.run(reply: { _ in .status(21010) }) { standIn in
            try await withServer(configure: {
                $0.verifyReceiptURL = standIn.productionURL
                $0.verifyReceiptSandboxURL = standIn.sandboxURL
            }) { server in
                let account = try await server.signUp()
                let series = #"storesync_receipt_verifications_total{result="rejected"}"#
                let rejected = MetricsSamples(try await server.send("GET", "/metrics").body).value(series)
                let response = try await server.uploadReceipt("garbage", token: account.token)
                #expect(response.status == 422)
                #expect(response.problem?.type == ProblemType.receiptRejected.uri)
                #expect(try await server.count("transactions") == 0)
                #expect(MetricsSamples(try await server.send("GET", "/metrics").body).value(series) >= rejected + 1)
            }
        }
    }

    @Test func anUploadNeedsExactlyOneOfSignedTransactionAndReceipt() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let neither = try await server.send("POST", "/v1/transactions", token: account.token, json: UploadTransactionRequest())
            #expect(neither.status == 400)
            let both = try await server.send(
                "POST", "/v1/transactions", token: account.token,
                json: UploadTransactionRequest(signedTransaction: "a.b.c", receipt: "cmVjZWlwdA=="))
            #expect(both.status == 400)
        }
    }

    @Test func aSignedTransactionOfAnotherAppIsRefused() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let otherApp = AppStoreTestSigner(pki: server.pki, bundleId: "com.example.other")
            let jws = otherApp.signTransaction(TestPurchases.record(purchased: server.clock.now()))
            let response = try await server.upload(jws, token: account.token, expect: 422)
            #expect(response.problem?.type == ProblemType.invalidSignedData.uri)
            #expect(response.problem?.field == "signedTransaction")
            #expect(try await server.count("transactions") == 0)
        }
    }
}
