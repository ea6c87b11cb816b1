import Foundation
import PropertyBased
import StoreSyncAPI
import StoreSyncTesting
import StoreSyncWire
import Testing

/// `SyncResponse.body(verdicts:snapshot:signedBy:)` writes its verdicts by hand; they must read
/// back as exactly the verdicts given, whatever their strings hold.
@Suite struct SyncResponseBodyTests {
    static let text = WireGenerators.escapeHeavyText
    static let verdict = zip(
        text, text, WireGenerators.one(of: VerdictKind.allCases), text.optional(), text.optional(),
        SnapshotGenerators.instant.optional()
    ).map { Verdict(originalTransactionId: $0, transactionId: $1, verdict: $2, reason: $3, productId: $4, movableAt: $5) }

    static func body(_ verdicts: [Verdict]) throws -> Data {
        Data(try SyncResponse.body(verdicts: verdicts, snapshot: WireFixture.snapshot) { _ in "c2lnbmF0dXJl" })
    }

    @Test func everyVerdictReadsBackAsWritten() async {
        await propertyCheck(count: 300, input: Self.verdict.array(of: 0...8)) { verdicts in
            let body = try Self.body(verdicts)
            let decoded = try StoreSyncJSON.makeDecoder().decode(SyncResponse.self, from: body)
            #expect(decoded.verdicts == verdicts)
            #expect(decoded.snapshot == WireFixture.snapshot.signed("c2lnbmF0dXJl"))
        }
    }

    @Test func plainVerdictsAreTheBytesTheEncoderWrites() throws {
        let verdicts = [
            Verdict(originalTransactionId: "100", transactionId: "101", verdict: .accepted),
            Verdict(originalTransactionId: "200", transactionId: "201", verdict: .rejected, reason: "the signature does not verify"),
            Verdict.legacyFlag(productId: "com.example.pro", verdict: .ownedByOtherAccount, reason: "held by another account"),
            Verdict(
                originalTransactionId: "300", transactionId: "300", verdict: .ownedByOtherAccount, reason: "moved recently",
                movableAt: Date(timeIntervalSince1970: 1_800_000_000.125)),
        ]
        let body = try Self.body(verdicts)
        let encoded = try StoreSyncJSON.makeEncoder().encode(verdicts)
        #expect(body.suffix(encoded.count + 1) == encoded + Data("}".utf8))
    }
}
