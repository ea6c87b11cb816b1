import Foundation
@testable import StoreSyncClient
import StoreSyncTesting
import Testing

/// What a crash between writing the temporary file and renaming it leaves behind.
@Suite struct FileStoreCrashTests {
    struct SimulatedCrash: Error {}

    /// A store whose writes to keys matching `crashingOn` stop right before the rename.
    static func crashingStore(_ directory: URL, crashingOn suffix: String) -> FileStore {
        FileStore(directory: directory) { _, destination in
            if destination.lastPathComponent.hasSuffix(suffix) { throw SimulatedCrash() }
        }
    }

    @Test func writeInterruptedBeforeTheRenameKeepsTheOldValue() throws {
        let directory = TestDirectory.make()
        try FileStore(directory: directory).set(Data("old ledger".utf8), forKey: "storesync.anon.ledger")

        let crashing = Self.crashingStore(directory, crashingOn: "ledger")
        #expect(throws: SimulatedCrash.self) { try crashing.set(Data("new ledger".utf8), forKey: "storesync.anon.ledger") }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".tmp-") }
        #expect(leftovers.count == 1, "the crash left its temporary file, fully written")
        #expect(try crashing.data(forKey: "storesync.anon.ledger") == Data("old ledger".utf8))
        #expect(try crashing.keys(withPrefix: "") == ["storesync.anon.ledger"], "temporary files are not keys")

        let restarted = FileStore(directory: directory)
        #expect(try restarted.data(forKey: "storesync.anon.ledger") == Data("old ledger".utf8))
        let remaining = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(remaining == ["storesync.anon.ledger"], "the leftover is cleaned at the next start")
    }

    @Test func firstWriteInterruptedLeavesNoFileRatherThanAnEmptyOne() throws {
        let directory = TestDirectory.make()
        let crashing = Self.crashingStore(directory, crashingOn: "snapshot")
        #expect(throws: SimulatedCrash.self) { try crashing.set(Data("{}".utf8), forKey: "storesync.acct.x.snapshot") }
        #expect(try FileStore(directory: directory).data(forKey: "storesync.acct.x.snapshot") == nil)
    }

    @Test func purchaseWhoseQueueingCrashedIsNotAcknowledgedAndUploadsWhenRecordedAgain() async throws {
        try await withLiveServer { server in
            let directory = TestDirectory.make()
            let email = TestAccount.email()
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            do {
                let device = TestDevice(server: server, store: Self.crashingStore(directory, crashingOn: "outbox"))
                try await device.client.signUp(email: email, password: TestAccount.password)
                await #expect {
                    try await device.client.record(signedTransaction: lifetime.jws)
                } throws: { error in
                    if case StoreSyncClientError.storage = error { return true }
                    return false
                }
                #expect(device.transport.requests(to: "/v1/transactions") == 0, "nothing is sent that is not queued")
            }
            // The app did not finish the transaction, so StoreKit delivers it again at launch.
            let restarted = TestDevice.onDisk(server: server, directory: directory)
            #expect(await restarted.client.pendingUploads == 0)
            #expect(try await restarted.client.record(signedTransaction: lifetime.jws) != .queued)
            #expect(await restarted.client.isEntitled(to: "premium"))
        }
    }
}
