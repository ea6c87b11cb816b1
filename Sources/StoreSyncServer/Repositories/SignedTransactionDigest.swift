import Crypto
import Foundation

/// The SHA-256 of a signed transaction's exact text: how the `transactions` table recognises a
/// JWS verified before (`signed_transaction_sha256`, which migration 0004 computes the same way
/// in SQL).
enum SignedTransactionDigest {
    static func of(_ jws: String) -> SHA256.Digest {
        var jws = jws
        return jws.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
    }

    /// The digest as the column stores it.
    static func bytes(_ digest: SHA256.Digest) -> Data {
        Data(digest)
    }

    /// The column's value for a JWS.
    static func bytes(of jws: String) -> Data {
        bytes(of(jws))
    }
}
