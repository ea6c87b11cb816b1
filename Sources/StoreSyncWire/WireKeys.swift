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
/// Make one per key type, in a `static let`: reading a name or a member is then a look into
/// bytes laid out once, with nothing allocated or counted per call.
package final class WireKeys<Key: CodingKey & CaseIterable>: @unchecked Sendable {  // `text` is written in init, only read after.
    /// Every key, in declaration order; a key's index here is its bit in a reader's set of the
    /// keys it has seen.
    private let keys: [Key]
    /// Every key sorted by the UTF-8 bytes of its name, with its index: the member order of
    /// canonical JSON (and of every hand-written StoreSync object).
    package let canonicalOrder: [(key: Key, index: Int)]
    /// `"name":` of every key, in declaration order, end to end (names of Swift identifiers need
    /// no escaping).
    private let text: UnsafeMutableBufferPointer<UInt8>
    /// Where each key's `"name":` starts in ``text``; one more entry for the end.
    private let starts: [Int]

    /// Reads the names of every case of `Key`.
    package init() {
        keys = Array(Key.allCases)
        let members = keys.map { Array("\"\($0.stringValue)\":".utf8) }
        canonicalOrder = keys.enumerated()
            .map { (key: $0.element, index: $0.offset) }
            .sorted { $0.key.stringValue.utf8.lexicographicallyPrecedes($1.key.stringValue.utf8) }
        text = .allocate(capacity: members.reduce(0) { $0 + $1.count })
        var starts = [0]
        for member in members {
            _ = UnsafeMutableBufferPointer(rebasing: text[starts.last!...]).initialize(from: member)
            starts.append(starts.last! + member.count)
        }
        self.starts = starts
    }

    deinit {
        text.deallocate()
    }

    /// The key whose name is exactly these bytes, and its index; `nil` when no key has it.
    package func key(named name: UnsafeBufferPointer<UInt8>) -> (key: Key, index: Int)? {
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
    package func member(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: text[starts[index]..<starts[index + 1]])
    }
}
