package import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A signed text (a compact JWS) as a record holds it: whole, or split after its protected
/// header so that the header is held once for every text that shares it.
///
/// The header carries the certificate chain, three quarters of the text and the same for every
/// text Apple signs in a period: a server holding a restore's ten thousand texts whole holds
/// the same chain ten thousand times. Split or whole, a text is the same bytes (``string``
/// gives them back exactly), and equality and hashing are by those bytes.
///
/// Immutable, so a text is shared between the records, the memo and the statements that carry
/// it without copies. `package`: devices only ever see ``TransactionRecord/signedTransaction``.
package final class SignedText: Sendable, Hashable {
    /// How the bytes are held.
    package enum Layout: Sendable {
        /// The text as one string.
        case whole(String)
        /// The header (up to and including the first `.`), shared, and the rest of the text.
        case split(Header, rest: [UInt8])
    }

    /// A protected header with its dot: `base64url(header).`, one object for every text of a
    /// batch that shares it.
    package final class Header: Sendable {
        /// The header's bytes, ending with the `.` that follows it.
        package let bytes: [UInt8]

        /// A header; `bytes` end with the dot.
        package init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// Whether `bytes` are this header's.
        package func matches(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
            bytes.withUnsafeBufferPointer { SignedText.sameBytes($0, other) }
        }
    }

    /// How the bytes are held.
    package let layout: Layout
    /// The SHA-256 of the whole text, when whoever made this value computed it; not part of
    /// equality (the server stores it beside the text, and computes it once).
    package let sha256: Data?

    /// A text held whole.
    package init(whole text: String, sha256: Data? = nil) {
        layout = .whole(text)
        self.sha256 = sha256
    }

    /// A text held as a shared header and its own rest.
    package init(header: Header, rest: [UInt8], sha256: Data? = nil) {
        layout = .split(header, rest: rest)
        self.sha256 = sha256
    }

    /// The text split after its header, the header its own (texts that share their headers go
    /// through ``SharedHeaders``); a text without a dot is held whole.
    package static func splitting(_ text: String) -> SignedText {
        var own = SharedHeaders(limit: 0)
        return own.split(text)
    }

    /// The length of `bytes`' header with its dot: up to and including the first `.`; `nil`
    /// without one.
    package static func headerLength(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, let dot = memchr(base, Int32(UInt8(ascii: ".")), bytes.count) else {
            return nil
        }
        return base.distance(to: dot.assumingMemoryBound(to: UInt8.self)) + 1
    }

    /// The text as one string (a copy, for a split text).
    package var string: String {
        switch layout {
        case .whole(let text):
            return text
        case .split(let header, let rest):
            return String(unsafeUninitializedCapacity: header.bytes.count + rest.count, initializingUTF8With: { buffer in
                let afterHeader = buffer.initialize(fromContentsOf: header.bytes)
                return buffer[afterHeader...].initialize(fromContentsOf: rest)
            })
        }
    }

    /// The number of UTF-8 bytes of the whole text.
    package var utf8Count: Int {
        switch layout {
        case .whole(let text): text.utf8.count
        case .split(let header, let rest): header.bytes.count + rest.count
        }
    }

    /// Calls `body` with the text's bytes in two parts: the header with its dot and the rest,
    /// or, for a text held whole, all of it and nothing.
    package func withParts<R>(
        _ body: (_ head: UnsafeBufferPointer<UInt8>, _ rest: UnsafeBufferPointer<UInt8>) throws -> R
    ) rethrows -> R {
        switch layout {
        case .whole(let text):
            var text = text
            return try text.withUTF8 { try body($0, UnsafeBufferPointer(start: nil, count: 0)) }
        case .split(let header, let rest):
            return try header.bytes.withUnsafeBufferPointer { head in
                try rest.withUnsafeBufferPointer { try body(head, $0) }
            }
        }
    }

    /// Whether the two hold the same bytes, however each is held.
    package static func == (lhs: SignedText, rhs: SignedText) -> Bool {
        if lhs === rhs { return true }
        guard lhs.utf8Count == rhs.utf8Count else { return false }
        if case .split(let left, let leftRest) = lhs.layout, case .split(let right, let rightRest) = rhs.layout,
            left === right
        {
            return leftRest.withUnsafeBufferPointer { a in rightRest.withUnsafeBufferPointer { sameBytes(a, $0) } }
        }
        return lhs.withParts { leftHead, leftRest in
            rhs.withParts { rightHead, rightRest in sameBytes(leftHead, leftRest, as: rightHead, rightRest) }
        }
    }

    /// Hashes the length and the last 16 bytes (the end of the signature, which differs between
    /// any two signatures): the same however the text is held, and no pass over kilobytes.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(utf8Count)
        let tail = lastSixteenBytes
        hasher.combine(tail.0)
        hasher.combine(tail.1)
    }

    /// The text's last 16 bytes as two words in memory order (as loading them from the text
    /// would give), wherever the parts divide them; zeros before a shorter text.
    package var lastSixteenBytes: (UInt64, UInt64) {
        var tail: (UInt64, UInt64) = (0, 0)
        withParts { head, rest in
            let last = rest.isEmpty ? head : rest
            if last.count >= 16, let base = last.baseAddress {
                let end = UnsafeRawPointer(base + last.count)
                tail = ((end - 16).loadUnaligned(as: UInt64.self), (end - 8).loadUnaligned(as: UInt64.self))
                return
            }
            withUnsafeMutableBytes(of: &tail) { tailBytes in
                let fromRest = min(16, rest.count)
                let fromHead = min(16 - fromRest, head.count)
                let start = 16 - fromRest - fromHead
                for offset in 0..<fromHead { tailBytes[start + offset] = head[head.count - fromHead + offset] }
                for offset in 0..<fromRest { tailBytes[16 - fromRest + offset] = rest[rest.count - fromRest + offset] }
            }
        }
        return tail
    }

    /// Whether two buffers hold the same bytes, by `memcmp`.
    private static func sameBytes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        guard let a = left.baseAddress, let b = right.baseAddress else { return true }
        return memcmp(a, b, left.count) == 0
    }

    /// Whether `head` then `rest` are the same bytes as `otherHead` then `otherRest`, the two
    /// totals being equal: three comparisons of the stretches the two divisions make, whichever
    /// head is the shorter.
    private static func sameBytes(
        _ head: UnsafeBufferPointer<UInt8>, _ rest: UnsafeBufferPointer<UInt8>,
        as otherHead: UnsafeBufferPointer<UInt8>, _ otherRest: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard head.count <= otherHead.count else { return sameBytes(otherHead, otherRest, as: head, rest) }
        let between = otherHead.count - head.count
        return sameBytes(head, UnsafeBufferPointer(rebasing: otherHead[..<head.count]))
            && sameBytes(UnsafeBufferPointer(rebasing: otherHead[head.count...]), UnsafeBufferPointer(rebasing: rest[..<between]))
            && sameBytes(UnsafeBufferPointer(rebasing: rest[between...]), otherRest)
    }
}
