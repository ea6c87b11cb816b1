import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// Uploads answered by something other than the StoreSync server — a captive portal, a proxy, a
/// firewall — or refused for reasons other than the signed data: the purchase stays queued.
@Suite struct CaptivePortalTests {
    static let portalPage = Data("<html><body>Sign in to Airport Wi-Fi</body></html>".utf8)

    /// 4xx answers that say nothing about the signed transaction itself.
    static let answersThatKeepTheUpload: [TransportResponse] = [
        TransportResponse(status: 403, headers: ["Content-Type": "text/html"], body: portalPage),
        TransportResponse(status: 404, headers: ["Content-Type": "text/html"], body: portalPage),
        TransportResponse(status: 407, headers: ["Content-Type": "text/html"], body: portalPage),
        TransportResponse(status: 403, body: Data()),
        TransportResponse(
            status: 400, headers: ["Content-Type": Problem.mediaType],
            body: Data(#"{"type":"\#(ProblemType.invalidRequest.uri)","title":"Invalid request","status":400}"#.utf8)),
    ]

    @Test func queuedPurchaseSurvivesForeignRefusalsAndGoesUpOnceTheServerAnswers() async throws {
        try await withLiveServer { server in
            let phone = TestDevice(server: server)
            let session = try await phone.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            phone.transport.isOffline = true
            #expect(try await phone.client.record(signedTransaction: lifetime.jws) == .queued)
            phone.transport.isOffline = false

            for answer in Self.answersThatKeepTheUpload {
                phone.transport.interceptingResponse = answer
                #expect(await phone.client.flush() == FlushOutcome(uploaded: 0, rejected: 0, pending: 1), "answered \(answer.status)")
                let kept = await phone.client.ledger(in: .account(session.accountId))[lifetime.record.transactionId]
                #expect(kept?.signedTransaction == lifetime.jws, "the ledger keeps the JWS after \(answer.status)")
            }
            #expect(await phone.client.rejectedUploads.isEmpty)

            phone.transport.interceptingResponse = nil
            #expect(await phone.client.flush() == FlushOutcome(uploaded: 1, rejected: 0, pending: 0))
            #expect(await phone.client.isEntitled(to: "premium"))
        }
    }

    @Test func purchaseRecordedBehindACaptivePortalIsQueuedAndSaysWhy() async throws {
        try await withLiveServer { server in
            let phone = TestDevice(server: server)
            let session = try await phone.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            phone.transport.interceptingResponse = Self.answersThatKeepTheUpload[0]

            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            #expect(try await phone.client.record(signedTransaction: lifetime.jws) == .queued)
            let entry = try #require(await phone.client.outbox(in: .account(session.accountId)).first)
            #expect(entry.lastFailure?.contains("captive portal") == true, "\(entry.lastFailure ?? "no failure")")
            #expect(entry.lastFailure?.contains("text/html") == true)

            phone.transport.interceptingResponse = nil
            #expect(await phone.client.flush().uploaded == 1)
            #expect(await phone.client.isEntitled(to: "premium"))
        }
    }
}
