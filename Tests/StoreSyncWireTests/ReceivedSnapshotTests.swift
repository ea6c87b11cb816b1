import Foundation
import PropertyBased
import StoreSyncAPI
import StoreSyncTesting
import StoreSyncWire
import Testing

/// A device verifies a snapshot over its bytes as received: `SyncResponse.snapshotRange(in:)`
/// finds them in a sync answer, `ReceivedSnapshotSignature` splits off the signature. Both
/// must find exactly what `JSONDecoder` reads and what the server signed.
@Suite struct ReceivedSnapshotTests {
    static let verdicts = SyncResponseBodyTests.verdict.array(of: 0...6)

    @Test func aSyncAnswersSnapshotIsFoundAndSplitAsItWasSigned() async {
        await propertyCheck(count: 200, input: zip(SnapshotGenerators.snapshot, Self.verdicts)) { snapshot, verdicts in
            var signed = Data()
            let body = Data(try SyncResponse.body(verdicts: verdicts, snapshot: snapshot) { bytes in
                signed = Data(bytes)
                return "c2lnbmF0dXJl"
            })
            let range = try #require(SyncResponse.snapshotRange(in: body))
            let object = body.subdata(in: range)
            let plain = try StoreSyncJSON.makeDecoder().decode(SyncResponse.self, from: body)
            #expect(try StoreSyncJSON.makeDecoder().decode(Snapshot.self, from: object) == plain.snapshot)
            let split = try #require(ReceivedSnapshotSignature(object))
            #expect(split.signature == "c2lnbmF0dXJl")
            #expect(split.signedBytes == signed)
        }
    }

    @Test func theSnapshotIsFoundWhateverSurroundsIt() throws {
        let object = #"{"signature":"c2ln","accountId":"x","nested":{"a":[1,2.5e-3,"\"}]",true,null]}}"#
        let bodies = [
            #"{"verdicts":[{"reason":"caf\u00e9 \"snapshot\": {","verdict":"known"}],"snapshot":"# + object + "}",
            " {\n  \"snapshot\" : " + object + " ,\n \"added\": {\"snapshot\": 1}, \"n\": -0.5E+2 }\n",
        ]
        for body in bodies {
            let data = Data(body.utf8)
            let range = try #require(SyncResponse.snapshotRange(in: data), "\(body)")
            #expect(String(decoding: data.subdata(in: range), as: UTF8.self) == object)
        }
    }

    @Test(arguments: [
        #"{"snapshot":{"version":1},"snapshot":{"version":2}}"#,
        #"{"snapsho\u0074":{"version":1}}"#,
        #"{"snapshot":[]}"#,
        #"[{"snapshot":{}}]"#,
        #"{"verdicts":[]}"#,
    ])
    func aSnapshotThatCannotBeLocatedUnambiguouslyIsNotGuessed(body: String) {
        #expect(SyncResponse.snapshotRange(in: Data(body.utf8)) == nil)
    }

    @Test(arguments: [
        #"{"accountId":"x","signature":"c2ln"}"#,
        #"{"signature":"c2\/ln","accountId":"x"}"#,
        #"{"signature":"c2ln"}"#,
        #"{"signature":"c2ln","accountId":"x""#,
    ])
    func onlyASignatureWrittenFirstAndPlainIsSplitOff(text: String) {
        #expect(ReceivedSnapshotSignature(Data(text.utf8)) == nil)
    }

    @Test func whitespaceAroundTheSignatureMemberIsNotSignedText() throws {
        let split = try #require(ReceivedSnapshotSignature(Data(" { \"signature\" : \"c2ln\" ,\"accountId\":\"x\"}\n".utf8)))
        #expect(split.signature == "c2ln")
        #expect(split.signedBytes == Data(#"{"accountId":"x"}"#.utf8))
    }
}
