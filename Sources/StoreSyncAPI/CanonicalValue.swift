/// The tree the canonical encoder builds before writing bytes; objects and arrays are
/// references because containers keep appending to them after they are handed out.
enum CanonicalValue {
    case null
    case bool(Bool)
    /// An integer's decimal text.
    case number(String)
    case string(String)
    case array(CanonicalArray)
    case object(CanonicalObject)
    /// A value a `superEncoder()` will have produced by the time the tree is written.
    case deferred(CanonicalEncoder)
}

final class CanonicalArray {
    var elements: [CanonicalValue] = []
}

final class CanonicalObject {
    /// Keyed by UTF-8 bytes so two keys that `String` would call equal stay distinct.
    var members: [[UInt8]: CanonicalValue] = [:]

    subscript(key: String) -> CanonicalValue? {
        get { members[Array(key.utf8)] }
        set { members[Array(key.utf8)] = newValue }
    }
}

extension CanonicalValue {
    func write(to out: inout [UInt8]) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let value):
            out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text):
            out.append(contentsOf: text.utf8)
        case .string(let text):
            Self.writeString(text.utf8, to: &out)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            let keys = object.members.keys.sorted { $0.lexicographicallyPrecedes($1) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                object.members[key]?.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .deferred(let encoder):
            (encoder.value ?? .object(CanonicalObject())).write(to: &out)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
