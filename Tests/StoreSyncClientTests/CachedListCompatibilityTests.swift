import Foundation
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// Every list the cache holds (ledger, outbox, legacy flags, refused uploads, imports) is read
/// element by element: an element another version of the app wrote in a layout this one cannot
/// read costs only itself, and is kept aside in the partition's `unreadable` item, never deleted
/// (through iCloud, a deletion would reach the device whose version wrote it).
@Suite struct CachedListCompatibilityTests {
    /// `list` (a JSON array) with `element` put in front.
    private static func prepending(_ element: String, to list: Data) -> Data {
        let text = String(decoding: list, as: UTF8.self)
        return Data(("[" + element + "," + text.dropFirst()).utf8)
    }

    @Test func aLedgerElementThisVersionCannotReadCostsOnlyItselfAndIsKept() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let partition = CachePartition.account(session.accountId)
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
            let key = partition.key(.ledger)
            let written = try #require(try device.store.data(forKey: key))
            let mixed = Self.prepending(#"{"transaction":{"layout":"of a later version"}}"#, to: written)
            try device.store.set(mixed, forKey: key)

            #expect(await device.client.ledger(in: partition).records.count == 1, "the readable record is read")
            #expect(await device.client.quarantined(in: partition) == [.ledger: [mixed]])
            let issues = await device.client.integrityIssues
            #expect(issues.contains { $0.key == key && $0.problem.contains("1 of 2 elements") })

            // A purchase recorded offline rewrites the ledger: the readable record stays beside
            // it, and what could not be read is still kept, once.
            device.transport.isOffline = true
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.seasonPass, on: server).jws)
            let ledger = await device.client.ledger(in: partition)
            #expect(Set(ledger.records.map(\.productId)) == [TestCatalog.lifetime, TestCatalog.seasonPass])
            #expect(await device.client.quarantined(in: partition) == [.ledger: [mixed]])

            // Deleting the account leaves nothing of it behind, what was kept aside included.
            device.transport.isOffline = false
            try await device.client.deleteAccount(password: TestAccount.password)
            #expect(try device.store.data(forKey: partition.key(.unreadable)) == nil)
        }
    }

    @Test func legacyFlagsAnotherVersionWroteAreReadOneByOne() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let key = CachePartition.anonymous.key(.flags)
            let written = Data(#"["com.example.a",{"productId":"com.example.b","since":3},"com.example.c"]"#.utf8)
            try device.store.set(written, forKey: key)

            #expect(await device.client.pendingLegacyFlags == ["com.example.a", "com.example.c"])
            #expect(await device.client.quarantined(in: .anonymous) == [.flags: [written]])
        }
    }

    @Test func aListItemThatIsNoListIsKeptAsideNotDeleted() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let partition = CachePartition.account(session.accountId)
            let foreign = Data(#"{"format":2,"records":{}}"#.utf8)
            try device.store.set(foreign, forKey: partition.key(.ledger))

            #expect(await device.client.ledger(in: partition).records.isEmpty)
            #expect(await device.client.quarantined(in: partition) == [.ledger: [foreign]])
        }
    }

    @Test func everyKeyFitsWhatEveryStoreAccepts() {
        for partition in [CachePartition.anonymous, .account(UUID())] {
            for item in CacheItem.allCases {
                let key = partition.key(item)
                #expect(key.utf8.count <= 64, "\(key) is \(key.utf8.count) bytes; iCloud key-value storage takes 64")
            }
        }
    }
}

extension CachedListCompatibilityTests {
    /// A newer version on another device writes its element back at each change: what is kept
    /// aside is bounded (the newest texts), and another version's quarantine is never replaced.
    @Test func whatIsKeptAsideIsBoundedAndAnotherVersionsQuarantineIsLeftAlone() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let key = CachePartition.anonymous.key(.flags)
            var written: [Data] = []
            for round in 0..<(StoreSyncClient.quarantinedTextsPerItem + 4) {
                let flags = Data(#"["com.example.a",{"productId":"com.example.b","round":\#(round)}]"#.utf8)
                written.append(flags)
                try device.store.set(flags, forKey: key)
                #expect(await device.client.pendingLegacyFlags == ["com.example.a"])
            }
            #expect(await device.client.quarantined(in: .anonymous) == [.flags: Array(written.suffix(StoreSyncClient.quarantinedTextsPerItem))])

            let foreign = Data(#"{"format":3}"#.utf8)
            try device.store.set(foreign, forKey: CachePartition.anonymous.key(.unreadable))
            try device.store.set(Data(#"[{"productId":"com.example.c"}]"#.utf8), forKey: key)
            #expect(await device.client.pendingLegacyFlags.isEmpty)
            #expect(try device.store.data(forKey: CachePartition.anonymous.key(.unreadable)) == foreign)
        }
    }
}
