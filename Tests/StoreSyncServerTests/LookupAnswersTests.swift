import Crypto
import Foundation
import Logging
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncCore
import StoreSyncTesting
import StoreSyncWire
import Testing

/// What a batch of cache misses is answered from one statement's rows: derived and signed on
/// the connection's thread, per request.
@Suite struct LookupAnswersTests {
    let key = Curve25519.Signing.PrivateKey()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let catalog = CatalogService.CatalogState(
        catalog: Catalog(TestCatalog.products), revision: CatalogService.CatalogState.revision(of: Catalog(TestCatalog.products)))

    var snapshots: SnapshotService {
        get throws {
            SnapshotService(
                signer: try SnapshotSigner(rawKey: key.rawRepresentation, logger: Logger(label: "test")), offlineGraceSeconds: 3_600,
                feed: nil, capacity: 0, byteBudget: 1 << 27)
        }
    }

    func holdings(version: Int64, records: [TransactionRecord]) -> AccountHoldings {
        AccountHoldings(version: version, ledger: Ledger(records: records, renewalInfos: []))
    }

    @Test func eachRequestGetsItsAccountsSnapshotSignedOnceAndA304WhenItHoldsTheCurrentTag() throws {
        let (owner, other) = (UUID(), UUID())
        let bought = TestPurchases.record(purchased: now.addingTimeInterval(-60))
        let currentTag = LookupService.etag(version: 7, catalogRevision: catalog.revision)
        let requests = [
            LookupService.SnapshotRequest(accountId: owner, heldTags: nil),
            LookupService.SnapshotRequest(accountId: owner, heldTags: "\"6-\(catalog.revision)\""),
            LookupService.SnapshotRequest(accountId: owner, heldTags: currentTag),
            LookupService.SnapshotRequest(accountId: other, heldTags: nil),
        ]
        let answers = LookupService.answers(
            to: requests, holdings: [owner: holdings(version: 7, records: [bought]), other: holdings(version: 2, records: [])],
            catalog: catalog, snapshots: try snapshots, at: now)

        let fresh = try #require(try answers[requests[0]]?.get())
        let stale = try #require(try answers[requests[1]]?.get())
        let (body, staleBody) = (try #require(fresh.signed?.body), try #require(stale.signed?.body))
        #expect(fresh.etag == currentTag)
        #expect(staleBody == body, "one signature per account and batch")
        #expect(fresh.catalogRevision == catalog.revision)
        let snapshot = try StoreSyncJSON.makeDecoder().decode(Snapshot.self, from: Data(body))
        #expect(snapshot.accountId == owner && snapshot.version == 7)
        #expect(snapshot.entitlements.map(\.entitlementId) == ["premium"])
        let signature = try #require(Data(base64Encoded: snapshot.signature))
        #expect(key.publicKey.isValidSignature(signature, for: try snapshot.signedBytes()))

        let held = try #require(try answers[requests[2]]?.get())
        #expect(held.etag == currentTag)
        #expect(held.signed == nil, "a 304, for which nothing is signed")

        let empty = try #require(try answers[requests[3]]?.get())
        #expect(empty.signed?.snapshot.accountId == other)
        #expect(empty.signed?.snapshot.entitlements == [])
    }

    @Test func anAccountTheStatementDidNotFindHasNoAnswer() throws {
        let request = LookupService.SnapshotRequest(accountId: UUID(), heldTags: nil)
        let answers = LookupService.answers(to: [request], holdings: [:], catalog: catalog, snapshots: try snapshots, at: now)
        #expect(answers[request] == nil)
    }

    @Test func aSnapshotThatCannotBeSignedFailsOnlyItsOwnRequests() throws {
        let (broken, fine) = (UUID(), UUID())
        // A date past year 9999 has no RFC 3339 form: its snapshot cannot be encoded.
        let unwritable = TestPurchases.record(purchased: Date(timeIntervalSince1970: 300_000_000_000))
        let requests = [broken, fine].map { LookupService.SnapshotRequest(accountId: $0, heldTags: nil) }
        let answers = LookupService.answers(
            to: requests, holdings: [broken: holdings(version: 1, records: [unwritable]), fine: holdings(version: 1, records: [])],
            catalog: catalog, snapshots: try snapshots, at: now)

        #expect(throws: (any Error).self) { try answers[requests[0]]?.get() }
        #expect(try answers[requests[1]]?.get().signed?.snapshot.accountId == fine)
    }

    /// From `concurrentWritingThreshold` purchases up, the transactions are written on a second
    /// core while the entitlements are derived: the answer is the same signed snapshot, and a
    /// date with no RFC 3339 form among them still fails only that account.
    @Test func aLongHistoryWrittenOnTwoCoresIsTheSameSignedSnapshot() throws {
        let (long, broken) = (UUID(), UUID())
        let count = SnapshotService.concurrentWritingThreshold + 5
        let records = (0..<count).map { index -> TransactionRecord in
            let id = String(5_000_000 + index)
            let purchased = now.addingTimeInterval(-Double(index) * 60)
            guard index.isMultiple(of: 2) else {
                return TestPurchases.record(
                    TestCatalog.monthly, type: .autoRenewable, id: id, purchased: purchased,
                    expires: now.addingTimeInterval(86_400 - Double(index)), group: TestCatalog.subscriptionGroup)
            }
            return TestPurchases.record(id: id, purchased: purchased)
        }
        var unwritable = records
        unwritable[count / 2] = TestPurchases.record(id: "4999999", purchased: Date(timeIntervalSince1970: 300_000_000_000))
        let requests = [long, broken].map { LookupService.SnapshotRequest(accountId: $0, heldTags: nil) }
        let answers = LookupService.answers(
            to: requests, holdings: [long: holdings(version: 3, records: records), broken: holdings(version: 1, records: unwritable)],
            catalog: catalog, snapshots: try snapshots, at: now)

        let body = try #require(try answers[requests[0]]?.get().signed?.body)
        let snapshot = try StoreSyncJSON.makeDecoder().decode(Snapshot.self, from: Data(body))
        let ledger = Ledger(records: records, renewalInfos: [])
        #expect(snapshot.transactions == ledger.records)
        let derived: [Entitlement] = entitlements(ledger: ledger, catalog: catalog.catalog, at: now)
        #expect(snapshot.entitlements == derived)
        #expect(!derived.isEmpty)
        let signature = try #require(Data(base64Encoded: snapshot.signature))
        #expect(key.publicKey.isValidSignature(signature, for: try snapshot.signedBytes()))
        #expect(throws: (any Error).self) { try answers[requests[1]]?.get() }
    }
}
