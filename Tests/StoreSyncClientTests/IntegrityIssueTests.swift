import Foundation
@testable import StoreSyncClient
import StoreSyncTesting
import Testing

/// ``StoreSyncClient/integrityIssues`` stays bounded however often the cache fails.
@Suite struct IntegrityIssueTests {
    @Test func keyThatStaysUnreadableIsReportedOnce() async throws {
        try await withLiveServer { server in
            let cache = FaultyStore()
            let device = TestDevice(server: server, store: cache)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)

            cache.failsReads = { $0.hasSuffix(".snapshot") }
            for _ in 0..<1000 {
                #expect(await device.client.isEntitled(to: "premium") == false)
            }
            let issues = await device.client.integrityIssues
            #expect(issues.count == 1)
            #expect(issues.first?.key == CachePartition.account(session.accountId).key(.snapshot))
        }
    }

    @Test func onlyTheNewestIssuesAreKept() {
        var issues: [CacheIntegrityIssue] = []
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<250 {
            issues.note(CacheIntegrityIssue(key: "storesync.key\(index)", problem: "unreadable", detectedAt: start + Double(index)))
        }
        #expect(issues.count == [CacheIntegrityIssue].maximumCount)
        #expect(issues.first?.key == "storesync.key150")
        #expect(issues.last?.key == "storesync.key249")
    }
}
