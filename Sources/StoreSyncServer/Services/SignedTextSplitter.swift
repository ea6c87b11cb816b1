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
    /// The headers shared: a batch's texts almost always share one.
    private var headers = SharedHeaders(limit: 8)
    /// The hash's state after each shared header. Kept only for headers ``headers`` holds,
    /// which stay alive as long as it does, so an identifier is never another header's.
    private var states: [ObjectIdentifier: SHA256] = [:]

    /// A splitter that has seen no header.
    package init() {}

    /// `text` split after its header, its header shared with an earlier text's when the bytes
    /// are the same, with the SHA-256 of the whole text; a text without a dot stays whole.
    package mutating func split(_ text: String) -> SignedText {
        hashed(headers.split(text))
    }

    /// `text` split as a string is, with its digest: a text held whole is split; a text split
    /// already (as a restore's stream reads it) keeps its parts, its digest carried on from the
    /// saved state of a header with the same bytes.
    package mutating func split(_ text: SignedText) -> SignedText {
        hashed(headers.sharing(text))
    }

    /// The same text, with its SHA-256.
    private mutating func hashed(_ text: SignedText) -> SignedText {
        guard case .split(let header, let rest) = text.layout else {
            return SignedText(whole: text.string, sha256: SignedTransactionDigest.bytes(of: text))
        }
        var hasher = state(after: header)
        rest.withUnsafeBytes { hasher.update(data: $0) }
        return SignedText(header: header, rest: rest, sha256: Data(hasher.finalize()))
    }

    /// The hash's state after the header's bytes.
    private mutating func state(after header: SignedText.Header) -> SHA256 {
        if let saved = states[ObjectIdentifier(header)] { return saved }
        var hasher = SHA256()
        header.bytes.withUnsafeBytes { hasher.update(data: $0) }
        if headers.contains(header) { states[ObjectIdentifier(header)] = hasher }
        return hasher
    }
}
