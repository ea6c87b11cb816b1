import Foundation
import Testing

@testable import StoreSyncServer

@Suite struct RecordsetJSONTests {
    struct Row: RecordsetRow {
        var text: String?
        var number: Int?
        var flag = false
        var date: Date?
        var id: UUID?

        func write(to json: inout RecordsetJSON) throws {
            json.column("text", text)
            json.column("number", number)
            json.column("flag", flag)
            try json.column("date", date)
            json.column("id", id)
        }
    }

    private func parse(_ json: String) throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    }

    @Test func stringsSurviveQuotesBackslashesControlsAndNonASCII() throws {
        let texts = ["plain", "a \"quoted\" \\ path", "tab\there\nnew\u{1}line\u{1F}", "émoji 🎉 ü", ""]
        let rows = try parse(RecordsetJSON.encode(texts.map { Row(text: $0) }))
        #expect(rows.map { $0["text"] as? String } == texts)
    }

    @Test func nilColumnsAreLeftOutAndTheRestKeepTheirTypes() throws {
        let id = UUID()
        let date = Date(timeIntervalSince1970: 1_795_000_000.123)
        let rows = try parse(RecordsetJSON.encode([Row(), Row(text: "x", number: -42, flag: true, date: date, id: id)]))
        #expect(Set(rows[0].keys) == ["flag"])
        #expect(rows[1]["number"] as? Int == -42)
        #expect(rows[1]["flag"] as? Bool == true)
        #expect(rows[1]["date"] as? String == "2026-11-18T11:06:40.123Z")
        #expect(rows[1]["id"] as? String == id.uuidString)
    }

    @Test func anEmptyBatchIsAnEmptyArray() throws {
        #expect(try RecordsetJSON.encode([Row]()) == "[]")
    }

    @Test func aDateRFC3339CannotWriteIsAnError() {
        #expect(throws: EncodingError.self) {
            try RecordsetJSON.encode([Row(date: Date(timeIntervalSince1970: 1e13))])
        }
    }
}
