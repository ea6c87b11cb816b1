#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The wire names of a type's coding keys, read once from the keys themselves: the type's
/// `CodingKeys` stay the one list of its fields, which the fast readers match names against
/// and the writers take their member order from.
///
/// Make one per key type, in a `static let` (`CodingKeys+Wire.swift`): its tables are laid out
/// once and live as long as the process, so reading a name or a member counts no references and
/// allocates nothing, however many threads read at once.
struct WireKeys<Key: CodingKey & CaseIterable>: @unchecked Sendable {  // The tables are written in init, only read after.
    /// Every key, in declaration order; a key's index here is its bit in a reader's set of the
    /// keys it has seen.
    private let keys: UnsafeBufferPointer<Key>
    /// Every key sorted by the UTF-8 bytes of its name, with its index: the member order of
    /// canonical JSON (and of every hand-written StoreSync object).
    let canonicalOrder: UnsafeBufferPointer<(key: Key, index: Int)>
    /// `"name":` of every key, in declaration order, end to end (names of Swift identifiers need
    /// no escaping).
    private let text: UnsafeBufferPointer<UInt8>
    /// Where each key's `"name":` starts in ``text``; one more entry for the end.
    private let starts: UnsafeBufferPointer<Int>

    /// Reads the names of every case of `Key`.
    init() {
        let keys = Array(Key.allCases)
        let members = keys.map { Array("\"\($0.stringValue)\":".utf8) }
        let order = keys.enumerated()
            .map { (key: $0.element, index: $0.offset) }
            .sorted { $0.key.stringValue.utf8.lexicographicallyPrecedes($1.key.stringValue.utf8) }
        var starts = [0]
        for member in members { starts.append(starts.last! + member.count) }
        self.keys = Self.lasting(keys)
        canonicalOrder = Self.lasting(order)
        text = Self.lasting(members.flatMap { $0 })
        self.starts = Self.lasting(starts)
    }

    /// A copy of `elements` that is never freed.
    private static func lasting<Element>(_ elements: [Element]) -> UnsafeBufferPointer<Element> {
        let copy = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = copy.initialize(from: elements)
        return UnsafeBufferPointer(copy)
    }

    /// The key whose name is exactly these bytes, and its index; `nil` when no key has it.
    func key(named name: UnsafeBufferPointer<UInt8>) -> (key: Key, index: Int)? {
        for index in keys.indices {
            // The name sits between the opening quote and the closing `":`.
            let start = starts[index] + 1
            guard starts[index + 1] - 2 - start == name.count else { continue }
            if name.isEmpty || memcmp(text.baseAddress! + start, name.baseAddress!, name.count) == 0 {
                return (keys[index], index)
            }
        }
        return nil
    }

    /// The key at `index`, written as an object member's start: `"name":`.
    func member(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: text[starts[index]..<starts[index + 1]])
    }
}
