import Foundation
import StoreSyncAPI
import StoreSyncCore

/// A row that a batch statement reads with `jsonb_to_recordset`: it writes its columns by
/// their snake-case names.
protocol RecordsetRow {
    func write(to json: inout RecordsetJSON) throws
}

/// The JSON array of objects `jsonb_to_recordset` reads: a whole batch travels as one
/// parameter, so a restore writes each table with one statement.
///
/// Written by hand rather than by `JSONEncoder`: with snake-case key conversion and sorted
/// keys, encoding the rows of a 1,000-entry restore took a fifth of the restore's time. A
/// `nil` column is left out (`jsonb_to_recordset` reads a missing key as NULL); dates are
/// RFC 3339 with milliseconds, as everywhere else.
struct RecordsetJSON {
    private var bytes: [UInt8] = []
    private var firstField = true

    /// The batch as JSON text.
    ///
    /// - Throws: `EncodingError.invalidValue` for a date outside years 0001–9999.
    static func encode(_ rows: [some RecordsetRow]) throws -> String {
        var json = RecordsetJSON()
        json.bytes.reserveCapacity(rows.count * 640 + 2)
        json.bytes.append(UInt8(ascii: "["))
        for (index, row) in rows.enumerated() {
            if index > 0 { json.bytes.append(UInt8(ascii: ",")) }
            json.bytes.append(UInt8(ascii: "{"))
            json.firstField = true
            try row.write(to: &json)
            json.bytes.append(UInt8(ascii: "}"))
        }
        json.bytes.append(UInt8(ascii: "]"))
        return String(decoding: json.bytes, as: UTF8.self)
    }

    mutating func column(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        JSONString.append(value, to: &bytes)
    }

    mutating func column(_ name: StaticString, _ value: some RawRepresentable<String>) {
        column(name, value.rawValue)
    }

    mutating func column(_ name: StaticString, _ value: UUID?) {
        guard let value else { return }
        key(name)
        JSONString.append(value, to: &bytes)
    }

    /// - Throws: `EncodingError.invalidValue` for a date outside years 0001–9999.
    mutating func column(_ name: StaticString, _ value: Date?) throws {
        guard let value else { return }
        key(name)
        guard JSONString.append(value, to: &bytes) else {
            throw EncodingError.invalidValue(value, .init(
                codingPath: [], debugDescription: "\(name) is outside the years 0001–9999 RFC 3339 can write"))
        }
    }

    mutating func column(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func column(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    private mutating func key(_ name: StaticString) {
        if !firstField { bytes.append(UInt8(ascii: ",")) }
        firstField = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: "\":".utf8)
    }
}
