#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A strict JSON reader for the plain shapes StoreSync's clients and Apple's signed payloads
/// use, only where decoding is hot (a restore carries thousands of entries and of signed
/// transactions).
///
/// It accepts a subset of what `JSONDecoder` accepts and answers `nil` for everything else:
/// strings with escapes, control characters or anything but ASCII, numbers other than plain
/// integers, and any shape it does not expect. Callers then decode with `JSONDecoder`, whose
/// errors name the field, so the fast path never decides what is refused nor how.
struct JSONFastScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position == bytes.count }

    /// How many bytes were read.
    var offset: Int { position }

    /// The byte at the position, not read yet; `nil` at the end.
    var next: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// JSON's whitespace: space, tab, line feed, carriage return.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Skips JSON whitespace.
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case let byte where Self.isWhitespace(byte): position += 1
            default: return
            }
        }
    }

    /// Consumes `byte` after optional whitespace; `false` (nothing consumed) when another comes.
    mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Whether the next value is `null`, consuming it if so.
    mutating func consumeNull() -> Bool {
        consumeLiteral("null")
    }

    /// A string of printable ASCII without escapes.
    ///
    /// Escapes and non-ASCII text (whose UTF-8 would need validating) are left to
    /// `JSONDecoder`; raw control characters are invalid JSON.
    mutating func string() -> String? {
        stringBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of a string as ``string()`` reads it, without making a `String`.
    ///
    /// The closing quote is found with `memchr` and the text before it checked eight bytes at a
    /// time: a restore's strings are mostly JWS, megabytes that a byte-by-byte loop would
    /// crawl through.
    mutating func stringBytes() -> UnsafeBufferPointer<UInt8>? {
        guard consume(UInt8(ascii: "\"")), let base = bytes.baseAddress else { return nil }
        let start = position
        guard let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), bytes.count - start) else { return nil }
        let text = UnsafeBufferPointer(start: base + start, count: base.distance(to: quote.assumingMemoryBound(to: UInt8.self)) - start)
        guard Self.isPlainASCII(text) else { return nil }
        position = start + text.count + 1
        return text
    }

    /// Whether every byte is printable ASCII other than a backslash (0x20–0x7F but `\`).
    ///
    /// Blocks of sixteen bytes, by lane-wise arithmetic that sets a lane's high bit for a bad
    /// byte (``badBytes(_:)``); the blocks' lanes are gathered and looked at once at the end,
    /// since a text is nearly always plain. A restore's texts are megabytes, and checked eight
    /// bytes at a time they were a visible part of reading one. (Lane comparisons, `.<` and
    /// `.==`, compile to a loop over the lanes with this toolchain, slower than reading byte by
    /// byte.)
    private static func isPlainASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if let base = text.baseAddress {
            // Four blocks a round, each into its own lanes, so the rounds do not wait on one another.
            var flagged = (SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>())
            while index + 64 <= text.count {
                let start = UnsafeRawPointer(base + index)
                flagged.0 |= badBytes(start.loadUnaligned(as: SIMD16<UInt8>.self))
                flagged.1 |= badBytes(start.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self))
                flagged.2 |= badBytes(start.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self))
                flagged.3 |= badBytes(start.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self))
                index += 64
            }
            var folded = flagged.0 | flagged.1 | flagged.2 | flagged.3
            while index + 16 <= text.count {
                folded |= badBytes(UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self))
                index += 16
            }
            let lanes = unsafeBitCast(folded, to: (UInt64, UInt64).self)
            guard (lanes.0 | lanes.1) & 0x8080_8080_8080_8080 == 0 else { return false }
        }
        while index < text.count {
            let byte = text[index]
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return false }
            index += 1
        }
        return true
    }

    /// Sets the high bit of each lane whose byte ``isPlainASCII(_:)`` refuses: the byte's own for
    /// 0x80 and above, `byte - 0x20` wrapping below zero for a control character, and
    /// `(byte ^ 0x5C) - 1` wrapping for a backslash. A plain byte sets none: 0x20–0x7F minus
    /// 0x20 stays below 0x80, and XOR-ed with 0x5C it is 1–0x7F unless it is the backslash.
    @inline(__always)
    private static func badBytes(_ block: SIMD16<UInt8>) -> SIMD16<UInt8> {
        block | (block &- 0x20) | ((block ^ 0x5C) &- 1)
    }

    /// `true` or `false`.
    mutating func bool() -> Bool? {
        if consumeLiteral("true") { return true }
        if consumeLiteral("false") { return false }
        return nil
    }

    /// An integer written as JSON writes one (no fraction, no exponent, no leading zeros) that
    /// fits an `Int`.
    mutating func integer() -> Int? {
        skipWhitespace()
        var index = position
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digitsStart = index
        var value = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let digit = Int(bytes[index] - UInt8(ascii: "0"))
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
            index += 1
        }
        let digits = index - digitsStart
        guard digits > 0, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0"), endsValue(at: index) else { return nil }
        position = index
        return value
    }

    /// An object: `member` reads the value of each key (its raw bytes) and answers whether it
    /// could.
    mutating func object(_ member: (inout JSONFastScanner, UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        if consume(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = stringBytes(), consume(UInt8(ascii: ":")), member(&self, key) else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}"))
    }

    /// An array: `element` reads each element and answers whether it could.
    mutating func array(_ element: (inout JSONFastScanner) -> Bool) -> Bool {
        guard consume(UInt8(ascii: "[")) else { return false }
        if consume(UInt8(ascii: "]")) { return true }
        repeat {
            guard element(&self) else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]"))
    }

    /// `null` (leaves `value` absent, as `decodeIfPresent` reads it) or a value `read` reads;
    /// `false` when it reads none.
    mutating func optional<Value>(into value: inout Value?, _ read: (inout JSONFastScanner) -> Value?) -> Bool {
        if consumeNull() { return true }
        value = read(&self)
        return value != nil
    }

    /// A string that is one of the type's raw values.
    mutating func rawValue<Value: RawRepresentable<String>>() -> Value? {
        string().flatMap(Value.init(rawValue:))
    }

    /// Skips a value of a key the reader does not know, as `JSONDecoder` ignores it; only a
    /// plain string, integer, boolean or `null` (anything else is left to `JSONDecoder`, which
    /// also checks it is valid JSON).
    mutating func skipPlainValue() -> Bool {
        consumeNull() || bool() != nil || integer() != nil || stringBytes() != nil
    }

    /// Skips one value of any shape: objects and arrays nested up to `depthLimit`, strings with
    /// escapes or any text, numbers of any form.
    ///
    /// Only for text `JSONDecoder` has already accepted: it finds where a value ends, it does not
    /// check that the value is valid JSON (a string's escapes and UTF-8 are not looked at).
    mutating func skipValue(depthLimit: Int = 512) -> Bool {
        skipWhitespace()
        guard let first = next, depthLimit > 0 else { return false }
        switch first {
        case UInt8(ascii: "\""): return skipString()
        case UInt8(ascii: "{"):
            position += 1
            if consume(UInt8(ascii: "}")) { return true }
            repeat {
                skipWhitespace()
                guard skipString(), consume(UInt8(ascii: ":")), skipValue(depthLimit: depthLimit - 1) else { return false }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            position += 1
            if consume(UInt8(ascii: "]")) { return true }
            repeat {
                guard skipValue(depthLimit: depthLimit - 1) else { return false }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "]"))
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return bool() != nil
        case UInt8(ascii: "n"): return consumeNull()
        default: return skipNumber()
        }
    }

    /// Skips a string whatever it holds, escapes included; the position must be at its quote.
    ///
    /// A quote ends the string unless an odd number of backslashes precedes it.
    mutating func skipString() -> Bool {
        guard next == UInt8(ascii: "\""), let base = bytes.baseAddress else { return false }
        var index = position + 1
        while index < bytes.count {
            guard let found = memchr(base + index, Int32(UInt8(ascii: "\"")), bytes.count - index) else { return false }
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var backslashes = 0
            while quote - backslashes - 1 > position, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            index = quote + 1
            if backslashes % 2 == 0 {
                position = index
                return true
            }
        }
        return false
    }

    /// Skips a number's characters (sign, digits, fraction, exponent), at least one.
    private mutating func skipNumber() -> Bool {
        var index = position
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                index += 1
            default:
                guard index > position, endsValue(at: index) else { return false }
                position = index
                return true
            }
        }
        guard index > position else { return false }
        position = index
        return true
    }

    private mutating func consumeLiteral(_ literal: StaticString) -> Bool {
        skipWhitespace()
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[position + offset] != literal.utf8Start[offset] {
            return false
        }
        guard endsValue(at: position + count) else { return false }
        position += count
        return true
    }

    /// Whether a number or literal may end at `index`: end of input, whitespace or a delimiter.
    private func endsValue(at index: Int) -> Bool {
        guard index < bytes.count else { return true }
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"): return true
        default: return false
        }
    }
}
