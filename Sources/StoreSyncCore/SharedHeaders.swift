package import Foundation

/// The headers that the texts split from here on share (``SignedText``): up to ``limit``
/// distinct ones, each held once, found again by their bytes.
///
/// A batch's texts almost always share one header (Apple's chain for a period), a few when it
/// spans a change of certificates; a text whose header is not among them keeps its own. The
/// limit bounds what one text costs to place: comparisons with at most ``limit`` headers, each
/// stopping at the first differing byte or at a differing length.
package struct SharedHeaders: Sendable {
    /// The most distinct headers shared.
    package let limit: Int
    /// The headers shared, in the order first met.
    package private(set) var headers: [SignedText.Header] = []

    /// None shared yet.
    package init(limit: Int) {
        self.limit = limit
    }

    /// The header for these bytes (the header with its dot): the shared one with the same
    /// bytes, else `candidate` or a copy of the bytes, shared from now on while there is room.
    package mutating func header(
        _ bytes: UnsafeBufferPointer<UInt8>, adopting candidate: SignedText.Header? = nil
    ) -> SignedText.Header {
        if let known = headers.first(where: { $0 === candidate || $0.matches(bytes) }) { return known }
        let header = candidate ?? SignedText.Header(Array(bytes))
        if headers.count < limit { headers.append(header) }
        return header
    }

    /// Whether `header` is one of those shared (so it stays alive as long as these do).
    package func contains(_ header: SignedText.Header) -> Bool {
        headers.contains { $0 === header }
    }

    /// `text` split after its header, the header shared; a text without a dot is held whole.
    package mutating func split(_ text: String, sha256: Data? = nil) -> SignedText {
        var text = text
        let parts = text.withUTF8 { bytes -> (SignedText.Header, [UInt8])? in
            guard let end = SignedText.headerLength(of: bytes) else { return nil }
            return (header(UnsafeBufferPointer(rebasing: bytes[..<end])), Array(bytes[end...]))
        }
        guard let (header, rest) = parts else { return SignedText(whole: text, sha256: sha256) }
        return SignedText(header: header, rest: rest, sha256: sha256)
    }

    /// `text` held split with one of these headers when the bytes match (the same value when
    /// it is already); a text held whole is split.
    package mutating func sharing(_ text: SignedText) -> SignedText {
        switch text.layout {
        case .whole(let string):
            return split(string, sha256: text.sha256)
        case .split(let own, let rest):
            let shared = own.bytes.withUnsafeBufferPointer { header($0, adopting: own) }
            return shared === own ? text : SignedText(header: shared, rest: rest, sha256: text.sha256)
        }
    }
}
