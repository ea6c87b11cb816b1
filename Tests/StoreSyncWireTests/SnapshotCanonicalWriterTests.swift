import Foundation
import PropertyBased
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import StoreSyncWire
import Testing

/// The writer behind `Snapshot.signedBytes()` gives exactly the bytes of the generic `Codable`
/// canonical path (the reference ``CanonicalJSON``), which is what the signature's definition
/// follows.
@Suite struct SnapshotCanonicalWriterTests {
    @Test func everySnapshotIsWrittenAsTheCodablePathWritesIt() async {
        await propertyCheck(count: 400, input: SnapshotGenerators.snapshot) { snapshot in
            let direct = try snapshot.signedBytes()
            #expect(try direct == CanonicalJSON.signedContent(of: snapshot))
        }
    }

    @Test func aTransactionCarryingItsJWSIsWrittenAsTheCodablePathWritesIt() throws {
        var snapshot = WireFixture.snapshot
        snapshot.transactions[0].signedTransaction = "eyJ.\"jws\"\n.sig"
        let direct = try snapshot.signedBytes()
        #expect(try direct == CanonicalJSON.signedContent(of: snapshot))
    }

    /// Long texts with escapes anywhere, in a record holding them whole or split at any byte.
    @Test func aTextIsWrittenAsTheCodablePathWritesItHeldWholeOrInParts() async {
        let longText = WireGenerators.escapeHeavyText.array(of: 0...12).map { $0.joined() }
        await propertyCheck(count: 400, input: zip(longText, Gen.int(in: 0...1_000), Gen.bool)) { text, cut, split in
            var snapshot = WireFixture.snapshot
            let bytes = Array(text.utf8)
            let headerLength = cut % (bytes.count + 1)
            snapshot.transactions[0].signedText = split
                ? SignedText(header: SignedText.Header(Array(bytes[..<headerLength])), rest: Array(bytes[headerLength...]))
                : SignedText(whole: text)
            let written = try snapshot.signedBytes()
            #expect(try written == CanonicalJSON.signedContent(of: snapshot))
        }
    }

    @Test(arguments: [-62_135_596_800_001, 253_402_300_800_000] as [Int64])
    func aDateNoYearCanWriteFailsOnBothPaths(milliseconds: Int64) {
        var snapshot = WireFixture.snapshot
        snapshot.transactions[0].expiresDate = Date(millisecondsSince1970: milliseconds)
        #expect(throws: EncodingError.self) { try snapshot.signedBytes() }
        #expect(throws: EncodingError.self) { try CanonicalJSON.signedContent(of: snapshot) }
    }
}
