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
    /// In the order they were set; sorted, and a repeated key reduced to its last value, only
    /// when written. Keys are compared by their UTF-8 bytes, so two keys that `String` would
    /// call equal (composed and decomposed accents) stay distinct.
    private(set) var members: [(key: String, value: CanonicalValue)] = []

    /// Sets a member; setting a key again replaces its value.
    func set(_ key: String, _ value: CanonicalValue) {
        members.append((key, value))
    }

    /// Removes every value set for a key.
    func remove(_ key: String) {
        members.removeAll { $0.key.utf8.elementsEqual(key.utf8) }
    }

    /// The members to write: sorted by key bytes, the last value of each key.
    var sortedMembers: [(key: String, value: CanonicalValue)] {
        // Equal keys keep their order of setting, so the last one of a run is the latest.
        let order = members.indices.sorted { left, right in
            let (leftKey, rightKey) = (members[left].key.utf8, members[right].key.utf8)
            if leftKey.elementsEqual(rightKey) { return left < right }
            return leftKey.lexicographicallyPrecedes(rightKey)
        }
        var sorted: [(key: String, value: CanonicalValue)] = []
        sorted.reserveCapacity(order.count)
        for (position, index) in order.enumerated() {
            let isReplaced = position + 1 < order.count && members[order[position + 1]].key.utf8.elementsEqual(members[index].key.utf8)
            if !isReplaced { sorted.append(members[index]) }
        }
        return sorted
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
            Self.writeString(text, to: &out)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.sortedMembers.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .deferred(let encoder):
            (encoder.value ?? .object(CanonicalObject())).write(to: &out)
        }
    }

    /// A string the canonical way, one byte at a time: written apart from StoreSyncWire's
    /// `JSONString`, so the property tests compare two escapers rather than one with itself.
    static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case ..<0x20: out.append(contentsOf: ("\\u00" + String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
