import Foundation
import StoreSyncCore

/// Writes a string as JSON text the canonical way: `"` and `\` escaped, `\b \f \n \r \t` for
/// those controls, `\u00xx` (lowercase hex) for the other controls below U+0020, every other
/// byte as it is.
///
/// One writer for every hand-written JSON of the project (``CanonicalJSONWriter``), so escaping
/// is decided once. The runs between escapes are copied whole: long values (a JWS) rarely need
/// any.
enum JSONString {
    static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &bytes) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { appendEscaped($0, to: &bytes) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a date as a JSON string in its canonical RFC 3339 spelling, which needs no
    /// escaping, without making a `String` of it first.
    ///
    /// - Returns: `false`, with nothing appended, for a date outside years 0001–9999.
    static func append(_ date: Date, to bytes: inout [UInt8]) -> Bool {
        bytes.append(UInt8(ascii: "\""))
        guard RFC3339Timestamp.append(date, to: &bytes) else {
            bytes.removeLast()
            return false
        }
        bytes.append(UInt8(ascii: "\""))
        return true
    }

    /// Appends a UUID as a JSON string spelled as `uuidString` spells it (upper-case hex),
    /// without making that string first.
    static func append(_ id: UUID, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: id.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(upperHexDigits[Int(byte >> 4)])
                bytes.append(upperHexDigits[Int(byte & 0x0F)])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    /// Appends `text` escaped: the runs between bytes that need escaping are copied whole, and
    /// found eight bytes at a time (a JWS, which never needs any, is kilobytes).
    private static func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var runStart = 0
        var index = 0
        while let found = firstNeedingEscape(in: text, from: index) {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<found]))
            appendEscape(of: text[found], to: &bytes)
            runStart = found + 1
            index = found + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...]))
    }

    /// The index of the first byte from `start` on that JSON needs escaped: a control below
    /// U+0020, `"` or `\`.
    private static func firstNeedingEscape(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        if let base = text.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highBits: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= text.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
                let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
                // A byte below 0x20, or equal to `"` or `\`, sets its high bit here (a byte of
                // 0x80 or more never does: `& ~word` clears it).
                let flagged = ((word &- ones &* 0x20) | (quotes &- ones) | (backslashes &- ones)) & ~word & highBits
                if flagged != 0 { break }
                index += 8
            }
        }
        while index < text.count {
            let byte = text[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return nil
    }

    /// Appends the escape of one byte that needs it.
    private static func appendEscape(of byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case ..<0x20:
            bytes.append(contentsOf: "u00".utf8)
            bytes.append(hexDigits[Int(byte >> 4)])
            bytes.append(hexDigits[Int(byte & 0x0F)])
        default: bytes.append(byte)  // `"` or `\`
        }
    }
}
