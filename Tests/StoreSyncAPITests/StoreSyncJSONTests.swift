import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct StoreSyncJSONTests {
    private struct Stamped: Codable, Equatable {
        var at: Date
    }

    @Test func writesDatesAsRFC3339WithMilliseconds() throws {
        let json = try StoreSyncJSON.makeEncoder().encode(Stamped(at: WireFixture.instant))
        #expect(String(decoding: json, as: UTF8.self) == #"{"at":"2026-11-22T10:15:30.123Z"}"#)
    }

    @Test(arguments: [
        #"{"at":"2026-11-22T10:15:30.123Z"}"#,
        #"{"at":"2026-11-22T11:15:30.123+01:00"}"#,
        #"{"at":"2026-11-22T10:15:30.1230Z"}"#,
    ])
    func readsEquivalentSpellingsAsOneInstant(json: String) throws {
        let decoded = try StoreSyncJSON.makeDecoder().decode(Stamped.self, from: Data(json.utf8))
        #expect(decoded.at == WireFixture.instant)
    }

    @Test func readsDatesWithoutFractionalSeconds() throws {
        let decoded = try StoreSyncJSON.makeDecoder().decode(Stamped.self, from: Data(#"{"at":"2026-11-22T10:15:30Z"}"#.utf8))
        #expect(decoded.at.millisecondsSince1970 == 1_795_342_530_000)
    }

    @Test(arguments: [#"{"at":"yesterday"}"#, #"{"at":"2026-02-30T00:00:00Z"}"#, #"{"at":1795342530}"#])
    func rejectsGarbageDates(json: String) {
        #expect(throws: DecodingError.self) {
            try StoreSyncJSON.makeDecoder().decode(Stamped.self, from: Data(json.utf8))
        }
    }

    @Test func garbageDateErrorNamesTheField() throws {
        var entry = try JSONSerialization.jsonObject(
            with: StoreSyncJSON.makeEncoder().encode(WireFixture.refunded)) as? [String: Any] ?? [:]
        entry["purchaseDate"] = "not a date"
        let body = try JSONSerialization.data(withJSONObject: ["entries": [entry]])
        do {
            _ = try StoreSyncJSON.makeDecoder().decode(RestoreRequest.self, from: body)
            Issue.record("garbage date was accepted")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.hasPrefix("entries[0].purchaseDate must be an RFC 3339 date"))
            #expect(context.codingPath.last?.stringValue == "purchaseDate")
        }
    }

    @Test func refusesToWriteDatesOutsideTheRFC3339Years() {
        #expect(throws: EncodingError.self) {
            try StoreSyncJSON.makeEncoder().encode(Stamped(at: Date(timeIntervalSince1970: 253_402_300_800)))
        }
    }

    @Test func doesNotEscapeSlashes() throws {
        let json = try StoreSyncJSON.makeEncoder().encode(Problem(.notFound, instance: "/v1/admin/purchases/1"))
        #expect(String(decoding: json, as: UTF8.self).contains(#""instance":"/v1/admin/purchases/1""#))
    }
}
