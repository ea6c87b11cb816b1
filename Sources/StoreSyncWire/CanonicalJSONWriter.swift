import Foundation

/// Writes JSON the canonical way straight from a payload's fields: no whitespace, members in
/// the order of their names' UTF-8 bytes (``WireKeys/canonicalOrder``), absent optionals left
/// out, strings escaped by ``JSONString``, dates in their RFC 3339 spelling and UUIDs as
/// `uuidString` spells them.
///
/// These are the bytes the generic `Codable` path gives (the tests hold the two equal with a
/// reference encoder), without a tree of boxed values built first.
struct CanonicalJSONWriter {
    private(set) var bytes: [UInt8] = []

    /// - Parameter capacity: The bytes to reserve.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// An object being written: its keys, and whether it has a member yet (the next one needs
    /// a comma).
    struct OpenObject<Key: CodingKey & CaseIterable> {
        let keys: WireKeys<Key>
        fileprivate var isEmpty = true
    }

    /// Appends `count` placeholder bytes, to be replaced (``replace(_:with:)``) once what
    /// follows them is written; answers where they start.
    mutating func reserve(_ count: Int) -> Int {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
        return start
    }

    /// Replaces written bytes: in place when `replacement` has their length, else moving every
    /// byte after them once.
    mutating func replace(_ range: ClosedRange<Int>, with replacement: [UInt8]) {
        guard replacement.count == range.count else { return bytes.replaceSubrange(range, with: replacement) }
        bytes.withUnsafeMutableBufferPointer { buffer in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[range]).update(fromContentsOf: replacement)
        }
    }

    /// Appends JSON written by another writer, as it is.
    mutating func appendWritten(_ json: [UInt8]) {
        bytes.append(contentsOf: json)
    }

    mutating func startObject<Key>(_ keys: WireKeys<Key>) -> OpenObject<Key> {
        bytes.append(UInt8(ascii: "{"))
        return OpenObject(keys: keys)
    }

    mutating func endObject<Key>(_ object: OpenObject<Key>) {
        bytes.append(UInt8(ascii: "}"))
    }

    /// The start of the member whose key is at `index`: a comma when needed, then `"name":`.
    mutating func member<Key>(_ index: Int, in object: inout OpenObject<Key>) {
        if !object.isEmpty { bytes.append(UInt8(ascii: ",")) }
        object.isEmpty = false
        bytes.append(contentsOf: object.keys.member(index))
    }

    /// A string member; none when `value` is `nil`.
    mutating func member<Key>(_ index: Int, string value: String?, in object: inout OpenObject<Key>) {
        guard let value else { return }
        member(index, in: &object)
        JSONString.append(value, to: &bytes)
    }

    /// An integer member; none when `value` is `nil`.
    mutating func member<Key>(_ index: Int, integer value: Int64?, in object: inout OpenObject<Key>) {
        guard let value else { return }
        member(index, in: &object)
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func member<Key>(_ index: Int, bool value: Bool, in object: inout OpenObject<Key>) {
        member(index, in: &object)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A UUID member, upper-case as `uuidString`; none when `value` is `nil`.
    mutating func member<Key>(_ index: Int, uuid value: UUID?, in object: inout OpenObject<Key>) {
        guard let value else { return }
        member(index, in: &object)
        JSONString.append(value, to: &bytes)
    }

    /// A date member in its canonical RFC 3339 spelling; none when `value` is `nil`.
    ///
    /// - Throws: `EncodingError.invalidValue` for a date outside years 0001–9999, as the
    ///   `Codable` path does.
    mutating func member<Key>(_ index: Int, date value: Date?, in object: inout OpenObject<Key>) throws {
        guard let value else { return }
        member(index, in: &object)
        guard JSONString.append(value, to: &bytes) else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Dates must fall within years 0001–9999"))
        }
    }

    /// An array member, each element written by `writeElement`.
    mutating func member<Key, Element>(
        _ index: Int, array elements: [Element], in object: inout OpenObject<Key>,
        _ writeElement: (inout CanonicalJSONWriter, Element) throws -> Void
    ) rethrows {
        member(index, in: &object)
        try array(elements, writeElement)
    }

    /// An array, each element written by `writeElement`.
    mutating func array<Element>(
        _ elements: [Element], _ writeElement: (inout CanonicalJSONWriter, Element) throws -> Void
    ) rethrows {
        bytes.append(UInt8(ascii: "["))
        for (position, element) in elements.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            try writeElement(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
