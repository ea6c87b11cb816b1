import PropertyBased

/// Generators the wire's property tests share.
enum WireGenerators {
    /// One of `values`, shrinking towards the first.
    static func one<Value: Sendable>(of values: [Value]) -> Generator<Value, Shrink.Integer<Int>> {
        Gen.int(in: 0...(values.count - 1)).map { values[$0] }
    }

    /// Text mixing what needs escaping (quotes, backslashes, controls) with what must pass
    /// through untouched (non-ASCII, U+007F, U+2028, `/`).
    static let escapeHeavyText = one(of: ["a", "Z9", "é", "😀", "€", "\"", "\\", "\u{0}", "\u{1F}", "\n", "\t", "\u{7F}", "\u{2028}", "/"])
        .array(of: 0...5).map { $0.joined() }

    /// Text of plain pieces a fast reader reads, one time in ten ending in a piece it leaves to
    /// `JSONDecoder` (an escape, non-ASCII).
    static let mostlyPlainText = zip(
        Gen.int(in: 0...9),
        one(of: ["a", "Z9", "0", ".", "-", "_", "com.example", "/", " ", "~"]).array(of: 0...4),
        one(of: ["\"", "\\", "\n", "\u{1F}", "é", "😀", "\u{2028}"])
    ).map { roll, pieces, other in roll == 0 ? pieces.joined() + other : pieces.joined() }

    /// One to three edits of JSON: a byte deleted, inserted or replaced, at any place.
    static let edits = zip(Gen.int(in: 0...2), Gen.int(in: 0...1_000_000), one(of: Array(#" ,:{}[]"0-1.eE+ntrufalsx\"#.utf8)))
        .array(of: 1...3)

    /// `bytes` with `edits` made, each place taken modulo the length at that moment.
    static func applying<Bytes: RangeReplaceableCollection & MutableCollection>(
        _ edits: [(Int, Int, UInt8)], to bytes: Bytes
    ) -> Bytes where Bytes.Element == UInt8, Bytes.Index == Int {
        var bytes = bytes
        for (kind, place, byte) in edits {
            let index = bytes.startIndex + place % (bytes.count + 1)
            switch kind {
            case 0 where index < bytes.endIndex: bytes.remove(at: index)
            case 1: bytes.insert(byte, at: index)
            default: if index < bytes.endIndex { bytes[index] = byte }
            }
        }
        return bytes
    }
}
