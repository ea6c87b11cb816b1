import Crypto
import Foundation
import StoreSyncCore

/// The SHA-256 of a signed transaction's exact text: how the `transactions` table recognises a
/// JWS verified before (`signed_transaction_sha256`, which migration 0004 computes the same way
/// in SQL).
enum SignedTransactionDigest {
    /// The column's value for a JWS.
    static func bytes(of jws: String) -> Data {
        var jws = jws
        return jws.withUTF8 { Data(SHA256.hash(data: UnsafeRawBufferPointer($0))) }
    }

    /// The column's value for a text however it is held: the digest it carries, or computed now.
    static func bytes(of text: SignedText) -> Data {
        if let sha256 = text.sha256 { return sha256 }
        return text.withParts { head, rest in
            var hasher = SHA256()
            hasher.update(data: UnsafeRawBufferPointer(head))
            hasher.update(data: UnsafeRawBufferPointer(rest))
            return Data(hasher.finalize())
        }
    }
}
