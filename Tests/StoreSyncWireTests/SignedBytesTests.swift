import Foundation
import PropertyBased
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import StoreSyncWire
import Testing

/// What a snapshot's signature covers, and the bodies made from those bytes.
@Suite struct SignedBytesTests {
    @Test func signedBytesAreTheCanonicalJSONOfEverythingButTheSignature() throws {
        let snapshot = Snapshot(
            accountId: WireFixture.accountId, version: 7, generatedAt: WireFixture.instant,
            validUntil: WireFixture.instant.addingTimeInterval(3 * 86_400), entitlements: [WireFixture.lifetime],
            transactions: [WireFixture.refunded], signature: "c2lnbmF0dXJl")
        let expected = #"{"accountId":"6F9619FF-8B86-D011-B42D-00C04FC964FF","#
            + #""entitlements":[{"entitlementId":"premium","environment":"production","originalTransactionId":"1000","#
            + #""ownershipType":"purchased","#
            + #""productId":"lifetime","source":"nonConsumable"}],"generatedAt":"2026-11-22T10:15:30.123Z","#
            + #""transactions":[{"environment":"production","evidence":"receipt","isUpgraded":false,"#
            + #""originalPurchaseDate":"2026-11-22T10:15:30.123Z","originalTransactionId":"1000","#
            + #""ownershipType":"purchased","productId":"lifetime","productType":"nonConsumable","#
            + #""purchaseDate":"2026-11-22T10:15:30.123Z","quantity":1,"revocationDate":"2026-11-22T10:16:30.123Z","#
            + #""revocationReason":1,"signedDate":"2026-11-22T10:16:30.123Z","transactionId":"1000","#
            + #""verifiedAt":"2026-11-22T10:16:31.123Z"}],"validUntil":"2026-11-25T10:15:30.123Z","version":7}"#
        #expect(String(decoding: try snapshot.signedBytes(), as: UTF8.self) == expected)
    }

    @Test func theBodyMadeFromTheSignedBytesDecodesToTheSignedSnapshot() throws {
        let signature = "c2lnbmF0dXJlIG9mIHRoZSBjb250ZW50"
        let body = Snapshot.body(signedBytes: try WireFixture.snapshot.signedBytes(), signature: signature)
        let decoded = try StoreSyncJSON.makeDecoder().decode(Snapshot.self, from: body)
        #expect(decoded == WireFixture.snapshot.signed(signature))
        #expect(try decoded.signedBytes() == WireFixture.snapshot.signedBytes())
    }

    @Test func theSyncResponseMadeFromASnapshotBodyDecodesToTheSameResponse() throws {
        let signed = WireFixture.snapshot.signed("c2lnbmF0dXJl")
        let snapshotBody = Snapshot.body(signedBytes: try signed.signedBytes(), signature: signed.signature)
        let body = try SyncResponse.body(verdicts: WireFixture.verdicts, snapshotBody: snapshotBody)
        let decoded = try StoreSyncJSON.makeDecoder().decode(SyncResponse.self, from: body)
        #expect(decoded == SyncResponse(verdicts: WireFixture.verdicts, snapshot: signed))
        let empty = try SyncResponse.body(verdicts: [], snapshotBody: snapshotBody)
        #expect(try StoreSyncJSON.makeDecoder().decode(SyncResponse.self, from: empty).verdicts.isEmpty)
    }

    @Test func signatureDoesNotChangeTheSignedBytes() throws {
        let unsigned = WireFixture.snapshot.signed("")
        #expect(try unsigned.signedBytes() == WireFixture.snapshot.signed("b3RoZXI=").signedBytes())
    }

    @Test func everyContentChangeChangesTheSignedBytes() throws {
        let original = try WireFixture.snapshot.signedBytes()
        var changes: [Snapshot] = []
        for index in 0..<6 {
            var changed = WireFixture.snapshot
            switch index {
            case 0: changed.version += 1
            case 1: changed.accountId = WireFixture.otherAccountId
            case 2: changed.validUntil = changed.validUntil.addingTimeInterval(0.001)
            case 3: changed.generatedAt = changed.generatedAt.addingTimeInterval(-0.001)
            case 4: changed.entitlements.removeLast()
            default: changed.transactions[0].quantity = 2
            }
            changes.append(changed)
        }
        for changed in changes { #expect(try changed.signedBytes() != original) }
    }

    @Test func everySnapshotBodyDecodesToTheSignedSnapshot() async {
        await propertyCheck(count: 200, input: SnapshotGenerators.snapshot) { snapshot in
            let signature = "c2lnbmF0dXJl"
            let body = Snapshot.body(signedBytes: try snapshot.signedBytes(), signature: signature)
            #expect(try StoreSyncJSON.makeDecoder().decode(Snapshot.self, from: body) == snapshot.signed(signature))
        }
    }
}
