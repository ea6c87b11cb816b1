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

    private static func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var runStart = 0
        for (index, byte) in text.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
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
            runStart = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...]))
    }
}
