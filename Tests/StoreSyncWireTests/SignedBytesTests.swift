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

    /// A stand-in signer: answers base64 of the first 66 bytes it is handed (88 characters,
    /// an Ed25519 signature's length, for every snapshot) and keeps everything it was handed.
    final class RecordingSigner {
        var handed: [Data] = []
        var length = 66

        func sign(_ bytes: UnsafeRawBufferPointer) -> String {
            handed.append(Data(bytes))
            return Data(bytes.prefix(length)).base64EncodedString()
        }
    }

    @Test func theBodyIsSignedOverExactlyTheSignedBytesAndDecodesToTheSignedSnapshot() throws {
        let signer = RecordingSigner()
        let body = try WireFixture.snapshot.body(signedBy: signer.sign)
        #expect(signer.handed == [try WireFixture.snapshot.signedBytes()])
        let decoded = try StoreSyncJSON.makeDecoder().decode(Snapshot.self, from: Data(body))
        #expect(decoded == WireFixture.snapshot.signed(signer.sign(signer.handed[0].withUnsafeBytes { $0 })))
        #expect(try decoded.signedBytes() == WireFixture.snapshot.signedBytes())
    }

    /// The room before the signed bytes fits an Ed25519 signature; any other length moves them.
    @Test(arguments: [0, 1, 12, 65, 67, 200])
    func aSignatureOfAnotherLengthStillLands(length: Int) throws {
        let signer = RecordingSigner()
        signer.length = length
        let signature = Data(try WireFixture.snapshot.signedBytes().prefix(length)).base64EncodedString()
        let body = try WireFixture.snapshot.body(signedBy: signer.sign)
        #expect(try StoreSyncJSON.makeDecoder().decode(Snapshot.self, from: Data(body)) == WireFixture.snapshot.signed(signature))
        let response = try SyncResponse.body(verdicts: WireFixture.verdicts, snapshot: WireFixture.snapshot, signedBy: signer.sign)
        #expect(
            try StoreSyncJSON.makeDecoder().decode(SyncResponse.self, from: Data(response))
                == SyncResponse(verdicts: WireFixture.verdicts, snapshot: WireFixture.snapshot.signed(signature)))
    }

    @Test func theSyncResponseSignsItsSnapshotAndDecodesToTheSameResponse() throws {
        let signer = RecordingSigner()
        let body = try SyncResponse.body(verdicts: WireFixture.verdicts, snapshot: WireFixture.snapshot, signedBy: signer.sign)
        #expect(signer.handed == [try WireFixture.snapshot.signedBytes()])
        let signature = signer.handed[0].prefix(66).base64EncodedString()
        let decoded = try StoreSyncJSON.makeDecoder().decode(SyncResponse.self, from: Data(body))
        #expect(decoded == SyncResponse(verdicts: WireFixture.verdicts, snapshot: WireFixture.snapshot.signed(signature)))
        let empty = try SyncResponse.body(verdicts: [], snapshot: WireFixture.snapshot, signedBy: signer.sign)
        #expect(try StoreSyncJSON.makeDecoder().decode(SyncResponse.self, from: Data(empty)).verdicts.isEmpty)
    }

    /// A dry run's preview is never signed: its snapshot has no `signature` member at all.
    @Test func anUnsignedSyncResponseCarriesNoSignature() throws {
        let body = try SyncResponse.body(verdicts: WireFixture.verdicts, snapshot: WireFixture.snapshot, signedBy: nil)
        #expect(!String(decoding: body, as: UTF8.self).contains(#""signature""#))
        let decoded = try StoreSyncJSON.makeDecoder().decode(SyncResponse.self, from: Data(body))
        #expect(decoded == SyncResponse(verdicts: WireFixture.verdicts, snapshot: WireFixture.snapshot.signed("")))
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
            let signer = RecordingSigner()
            let body = try snapshot.body(signedBy: signer.sign)
            let signed = try snapshot.signedBytes()
            #expect(signer.handed == [signed])
            let signature = signed.prefix(66).base64EncodedString()
            #expect(try StoreSyncJSON.makeDecoder().decode(Snapshot.self, from: Data(body)) == snapshot.signed(signature))
        }
    }
}
