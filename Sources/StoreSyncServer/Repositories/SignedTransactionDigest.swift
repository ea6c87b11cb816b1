import Crypto
import Foundation

/// The SHA-256 of a signed transaction's exact text: how the `transactions` table recognises a
/// JWS verified before (`signed_transaction_sha256`, which migration 0004 computes the same way
/// in SQL).
enum SignedTransactionDigest {
    /// The column's value for a JWS.
    static func bytes(of jws: String) -> Data {
        var jws = jws
        return jws.withUTF8 { Data(SHA256.hash(data: UnsafeRawBufferPointer($0))) }
    }
}
