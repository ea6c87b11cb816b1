import Crypto
import Foundation
package import StoreSyncCore

/// Takes a restore's texts apart as they are recalled: each held as its header, shared with the
/// texts before it, and its own rest (``StoreSyncCore/SignedText``), with its SHA-256.
///
/// A restore of ten thousand new purchases used to hold ten thousand copies of the same
/// certificate chain from its request until its rows were stored; split, it holds one. The
/// digest (by which the account's rows recognise a text, and which is stored beside it) costs
/// only the rest: the hash's state after the shared header is kept with it and carried on.
///
/// One per slice of a restore's entries, so the cores recalling them share nothing.
package struct SignedTextSplitter {
    /// How many distinct headers are kept to share: a batch's texts almost always share one
    /// (Apple's chain for a period), a few when a restore spans a change of certificates.
    static let sharedHeaderLimit = 8

    private var headers: [(header: SignedText.Header, hashed: SHA256)] = []

    /// A splitter that has seen no header.
    package init() {}

    /// `text` split after its header, its header shared with an earlier text's when the bytes
    /// are the same, with the SHA-256 of the whole text; a text without a dot stays whole.
    package mutating func split(_ text: String) -> SignedText {
        var text = text
        let split = text.withUTF8 { bytes -> SignedText? in
            guard let end = SignedText.headerLength(of: bytes) else { return nil }
            let (header, hashed) = shared(UnsafeBufferPointer(rebasing: bytes[..<end]))
            let rest = UnsafeBufferPointer(rebasing: bytes[end...])
            var hasher = hashed
            hasher.update(data: UnsafeRawBufferPointer(rest))
            return SignedText(header: header, rest: Array(rest), sha256: Data(hasher.finalize()))
        }
        return split ?? SignedText(whole: text, sha256: SignedTransactionDigest.bytes(of: text))
    }

    /// `text` split as a string is, with its digest: a text held whole is
    /// split; a text split already (as a restore's stream reads it) keeps its parts, its digest
    /// carried on from the saved state of a header with the same bytes.
    package mutating func split(_ text: SignedText) -> SignedText {
        switch text.layout {
        case .whole(let string):
            return split(string)
        case .split(let header, let rest):
            let hashed = header.bytes.withUnsafeBufferPointer { shared($0).1 }
            var hasher = hashed
            rest.withUnsafeBytes { hasher.update(data: $0) }
            return SignedText(header: header, rest: rest, sha256: Data(hasher.finalize()))
        }
    }

    /// The header object for these bytes, and the hash's state after them.
    private mutating func shared(_ bytes: UnsafeBufferPointer<UInt8>) -> (SignedText.Header, SHA256) {
        if let known = headers.first(where: { $0.header.matches(bytes) }) { return known }
        var hashed = SHA256()
        hashed.update(data: UnsafeRawBufferPointer(bytes))
        let header = SignedText.Header(Array(bytes))
        if headers.count < Self.sharedHeaderLimit { headers.append((header, hashed)) }
        return (header, hashed)
    }
}
