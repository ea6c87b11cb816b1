import Foundation

/// The ``SignedTransactionDigest`` of texts hashed already, so that storing them does not hash
/// them again.
///
/// A restore hashes every text its memo does not know, to find it among the account's rows,
/// and then stores most of those texts: a second SHA-256 of each (~4 KB) inside the
/// transaction, where the account is locked and the database waits.
///
/// Texts are filed under their length and last bytes (the end of the signature, which differs
/// between any two signatures), and a digest is answered only for a text equal to the one it
/// was computed from, so a wrong digest can never be stored. The texts are the request's own
/// strings: comparing a string with itself costs nothing, and nothing is copied.
///
/// `package`, not internal: `storesync-bench` hashes the texts of its store floor before timing
/// it, as a restore has before its transaction.
package struct KnownTextDigests: Sendable {
    private struct Key: Hashable {
        let length: Int
        let tail: UInt64
    }

    private var digests: [Key: [(text: String, digest: Data)]] = [:]

    /// None known.
    package init() {}

    /// The digests of `texts`, computed now.
    package init(hashing texts: some Sequence<String>) {
        self.init(texts.map { ($0, SignedTransactionDigest.bytes(of: $0)) })
    }

    /// Files the digest of each text.
    init(_ pairs: some Sequence<(text: String, digest: Data)>) {
        for pair in pairs { digests[Self.key(of: pair.text), default: []].append(pair) }
    }

    /// The digest of `text` when it is known; `nil` when the text was never filed.
    func digest(of text: String) -> Data? {
        digests[Self.key(of: text)]?.first { $0.text == text }?.digest
    }

    /// `text`'s digest, known or computed now.
    func digestComputingIfNeeded(of text: String) -> Data {
        digest(of: text) ?? SignedTransactionDigest.bytes(of: text)
    }

    private static func key(of text: String) -> Key {
        var tail: UInt64 = 0
        for byte in text.utf8.suffix(8) { tail = tail << 8 | UInt64(byte) }
        return Key(length: text.utf8.count, tail: tail)
    }
}
