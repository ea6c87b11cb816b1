import Foundation
package import StoreSyncAPI
import StoreSyncCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a restore body as it arrives, a fragment at a time: each element of `entries` is
/// decoded as soon as its last byte is in, and its bytes are let go. The server so never holds
/// a large restore's whole body beside the texts decoded from it (10,000 entries are 40 MB of
/// body and 40 MB of texts).
///
/// Everything but the elements of `entries` is kept as it came, with `"entries":[]` in place
/// of the array, and decoded at the end as a whole body would be; the entries then take the
/// array's place. Entries are decoded like the elements of a whole body
/// (``RestoreEntry``'s fast path, else `JSONDecoder`), and an entry's error names it by its
/// position (`entries[3].purchaseDate`). Whatever this reads, `JSONDecoder` reads the same from
/// the whole body (a property test holds it to that, over random fragmentations of valid and
/// mangled bodies). Only the `entries` of a top-level object whose key is written plainly are
/// read this way; any other body is kept whole and decoded at the end.
package struct RestoreRequestStream {
    /// The body is not JSON, or not the JSON of a restore request's shape where it matters.
    package struct Malformed: Error {}

    /// `entries` holds more elements than the stream was told to take: refused as the next one
    /// starts, before it is read, so the cap bounds the memory and work a body can ask for.
    package struct TooManyEntries: Error {
        package let limit: Int
    }

    private enum Mode {
        /// Before the first byte that is not whitespace.
        case start
        /// Inside the top-level object, outside `entries`' elements.
        case object
        /// Inside `entries`, between elements.
        case entries
        /// Inside an element of `entries`.
        case element
        /// After the top-level object.
        case done
        /// Not a top-level object: kept whole.
        case opaque
    }

    /// Where a member of the top-level object stands.
    private enum Member {
        /// A key may come (after `{` or `,`).
        case expectingKey
        /// Reading a key's text.
        case readingKey
        /// After the key, before `:`.
        case afterKey
        /// After `:`, before the value's first byte.
        case expectingValue
        /// Inside a value.
        case inValue
    }

    private var mode = Mode.start
    private var member = Member.expectingKey
    /// Everything but `entries`' elements.
    private var rest: [UInt8] = []
    /// The element being read.
    private var element: [UInt8] = []
    private var key: [UInt8] = []
    private var keyIsPlain = true
    /// Nesting inside the top-level object (1: its members).
    private var depth = 0
    /// Nesting inside an element of `entries` (0: the element itself).
    private var elementDepth = 0
    private var inString = false
    private var escaped = false
    /// `entries` was read as a stream.
    private var streamed = false
    /// `entries` members met, their keys written plainly.
    private var entriesMembers = 0
    /// A member's key was written with an escape: it might name `entries` too.
    private var escapedKey = false
    /// After `[` or `,` in `entries`: an element must come.
    private var elementDue = true
    private(set) var entries: [RestoreEntry] = []
    /// The headers the records' texts read so far share (``StoreSyncCore/SignedText``): a
    /// request's texts almost always have one (Apple's chain for a period), a few when they
    /// span a change of certificates.
    private var sharedHeaders = SharedHeaders(limit: 8)
    /// Bytes consumed so far.
    package private(set) var count = 0

    /// How deep an element may nest: `JSONDecoder` refuses a document nested deeper than 512
    /// levels, and an element lies two levels down (the body's object, `entries`' array). An
    /// element decoded alone would be allowed two levels more than the whole body.
    private static let deepestElement = 510

    /// The most elements `entries` may hold.
    private let maxEntries: Int

    /// A stream for one request's body.
    ///
    /// - Parameter maxEntries: The most elements `entries` may hold; one more is refused
    ///   (``TooManyEntries``) before it is read.
    package init(maxEntries: Int = .max) {
        self.maxEntries = maxEntries
    }

    /// Reads the next fragment of the body.
    ///
    /// - Throws: ``Malformed`` when the body cannot be JSON; a `DecodingError` naming the entry
    ///   (`entries[3]…`) when an entry is not one.
    package mutating func consume(_ fragment: UnsafeRawBufferPointer) throws {
        let bytes = fragment.assumingMemoryBound(to: UInt8.self)
        count += bytes.count
        var index = 0
        while index < bytes.count {
            switch mode {
            case .start:
                let byte = bytes[index]
                index += 1
                if JSONFastScanner.isWhitespace(byte) { continue }
                rest.append(byte)
                if byte == UInt8(ascii: "{") {
                    (mode, depth, member) = (.object, 1, .expectingKey)
                } else {
                    mode = .opaque
                }
            case .opaque:
                rest.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index...]))
                index = bytes.count
            case .done:
                guard JSONFastScanner.isWhitespace(bytes[index]) else {
                    // Kept whole, the decoder decides what follows the object.
                    guard !streamed else { throw Malformed() }
                    mode = .opaque
                    continue
                }
                rest.append(bytes[index])
                index += 1
            case .object:
                index = try readObject(bytes, from: index)
            case .entries:
                index = try readBetweenElements(bytes, from: index)
            case .element:
                index = try readElement(bytes, from: index)
            }
        }
    }

    /// Ends the body and answers the request.
    ///
    /// - Throws: ``Malformed`` when the body ended inside its JSON; a `DecodingError` when it is
    ///   not a restore request.
    package mutating func finish() throws -> RestoreRequest {
        switch mode {
        case .done, .opaque: break
        case .start, .object, .entries, .element: throw Malformed()
        }
        var request = try rest.withUnsafeBytes { body in
            if let fast = RestoreRequest.fastDecoded(from: body) { return fast }
            do {
                return try StoreSyncJSON.makeDecoder().decode(RestoreRequest.self, from: Data(body))
            } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
                throw Malformed()
            }
        }
        guard streamed else { return request }
        // Which of several would count is the decoder's to say, from the whole body: refused.
        guard entriesMembers == 1, !escapedKey else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [RestoreRequest.CodingKeys.entries],
                debugDescription: "entries appears more than once, or a key is written with an escape"))
        }
        request.entries = entries
        return request
    }

    // MARK: - The top-level object

    private mutating func readObject(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws -> Int {
        var index = start
        while index < bytes.count, mode == .object {
            let byte = bytes[index]
            if member == .expectingValue, !JSONFastScanner.isWhitespace(byte) {
                member = .inValue
                if !keyIsPlain {
                    escapedKey = true
                } else if key.elementsEqual("entries".utf8) {
                    entriesMembers += 1
                    if entriesMembers == 1, byte == UInt8(ascii: "[") {
                        rest.append(byte)
                        (mode, streamed, elementDue) = (.entries, true, true)
                        return index + 1
                    }
                }
            }
            rest.append(byte)
            index += 1
            if inString {
                if escaped {
                    escaped = false
                    if member == .readingKey { key.append(byte) }
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                    if member == .readingKey { keyIsPlain = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if member == .readingKey { member = .afterKey }
                } else if member == .readingKey {
                    key.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                if depth == 1, member == .expectingKey {
                    (member, keyIsPlain) = (.readingKey, true)
                    key.removeAll(keepingCapacity: true)
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { mode = .done }
            case UInt8(ascii: ","):
                if depth == 1 { member = .expectingKey }
            case UInt8(ascii: ":"):
                if depth == 1, member == .afterKey { member = .expectingValue }
            default:
                break
            }
        }
        return index
    }

    // MARK: - The elements of `entries`

    private mutating func readBetweenElements(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if JSONFastScanner.isWhitespace(byte) {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "]") {
                // `[]`, and `[1,]` as the decoder takes it (`[,` is refused at the comma).
                rest.append(byte)
                mode = .object
                return index + 1
            }
            if byte == UInt8(ascii: ",") {
                guard !elementDue else { throw Malformed() }
                elementDue = true
                return index + 1
            }
            guard elementDue else { throw Malformed() }
            elementDue = false
            guard entries.count < maxEntries else { throw TooManyEntries(limit: maxEntries) }
            if let end = decodeInPlace(bytes, from: index) { return end }
            (mode, elementDepth, inString, escaped) = (.element, 0, false, false)
            element.removeAll(keepingCapacity: true)
            return index
        }
        return index
    }

    /// Decodes the element starting at `start` where it lies, when the fragment holds all of it
    /// and the comma or bracket after it, and it is in the plain form; `nil` otherwise, and the
    /// element is then read into ``element`` byte by byte. Most elements lie whole in a fragment:
    /// decoded in place, their bytes are neither walked a second time to find the element's end
    /// nor copied, which was much of the time reading a restore of records took.
    ///
    /// The same bytes decode the same either way: the fast reader takes one object and stops at
    /// its closing brace, and what follows must be the comma or bracket that ends an element.
    private mutating func decodeInPlace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var scanner = JSONFastScanner(UnsafeBufferPointer(rebasing: bytes[start...]))
        guard let entry = Self.plainEntry(&scanner, endingAt: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "]") })
        else { return nil }
        entries.append(sharingHeader(entry))
        return start + scanner.offset
    }

    /// The entry the fast reader takes from `scanner`, when what follows it (whitespace aside)
    /// is where an element ends: `isEnd` is given the next byte, `nil` at the end of the bytes.
    /// `nil` when the fast reader does not take it, or something else follows.
    private static func plainEntry(_ scanner: inout JSONFastScanner, endingAt isEnd: (UInt8?) -> Bool) -> RestoreEntry? {
        guard let entry = RestoreEntry.fastDecoded(&scanner) else { return nil }
        scanner.skipWhitespace()
        return isEnd(scanner.next) ? entry : nil
    }

    private mutating func readElement(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws -> Int {
        var index = start
        while index < bytes.count {
            if inString, !escaped {
                // The texts are most of a restore: jump to the next quote or backslash.
                let end = Self.nextQuoteOrBackslash(in: bytes, from: index)
                element.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
                guard index < bytes.count else { break }
            }
            let byte = bytes[index]
            if inString {
                element.append(byte)
                index += 1
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ",") where elementDepth == 0, UInt8(ascii: "]") where elementDepth == 0:
                try decodeElement()
                mode = .entries
                return index
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                elementDepth += 1
                guard elementDepth <= Self.deepestElement else { throw Malformed() }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                elementDepth -= 1
                guard elementDepth >= 0 else { throw Malformed() }
            default:
                break
            }
            element.append(byte)
            index += 1
        }
        return index
    }

    /// Decodes the element read, as the element at its position in a whole body would be.
    private mutating func decodeElement() throws {
        let position = entries.count
        let decoded = try element.withUnsafeBufferPointer { buffer -> RestoreEntry in
            var scanner = JSONFastScanner(buffer)
            if let entry = Self.plainEntry(&scanner, endingAt: { $0 == nil }) { return entry }
            do {
                return try StoreSyncJSON.makeDecoder().decode(RestoreEntry.self, from: Data(buffer))
            } catch let error as DecodingError {
                throw try Self.atEntry(position, error)
            }
        }
        entries.append(sharingHeader(decoded))
    }

    /// The entry with its record's text split after its header, the header shared with the
    /// texts read before: a restore of ten thousand purchases would otherwise hold ten thousand
    /// copies of the same certificate chain, three quarters of its texts, from here until its
    /// rows are stored. An entry that is only a signed text stays as it is (its string is the
    /// public form of the entry); the restore splits it when it recalls it.
    private mutating func sharingHeader(_ entry: RestoreEntry) -> RestoreEntry {
        guard case .record(var record) = entry, let text = record.signedText, case .whole(let string) = text.layout else {
            return entry
        }
        record.signedText = sharedHeaders.split(string)
        return .record(record)
    }

    /// `error`, met decoding entry `position` on its own, as decoding the whole body meets it.
    private static func atEntry(_ position: Int, _ error: DecodingError) throws -> DecodingError {
        let prefix: [any CodingKey] = [RestoreRequest.CodingKeys.entries, EntryPosition(position)]
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // Not JSON: the whole body is not.
            throw Malformed()
        case .dataCorrupted(let context):
            return .dataCorrupted(context.under(prefix))
        case .keyNotFound(let key, let context):
            return .keyNotFound(key, context.under(prefix))
        case .valueNotFound(let type, let context):
            return .valueNotFound(type, context.under(prefix))
        case .typeMismatch(let type, let context):
            return .typeMismatch(type, context.under(prefix))
        @unknown default:
            throw Malformed()
        }
    }

    /// The index of the first `"` or `\` at or after `start`, or the end.
    private static func nextQuoteOrBackslash(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return bytes.count }
        let length = bytes.count - start
        let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), length)
        let searched = quote.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) - start } ?? length
        let backslash = memchr(base + start, Int32(UInt8(ascii: "\\")), searched)
        guard let backslash else { return start + searched }
        return base.distance(to: backslash.assumingMemoryBound(to: UInt8.self))
    }
}

/// An array position in a coding path, as `JSONDecoder` writes it.
private struct EntryPosition: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue!)" }

    init(_ position: Int) { intValue = position }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

extension DecodingError.Context {
    fileprivate func under(_ prefix: [any CodingKey]) -> DecodingError.Context {
        DecodingError.Context(codingPath: prefix + codingPath, debugDescription: debugDescription, underlyingError: underlyingError)
    }
}
