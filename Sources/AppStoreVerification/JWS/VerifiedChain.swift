import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is remembered of a chain that verified: the header that carried it, when it may vouch
/// for data, and the key that signs with it. Enough to verify the next payload with the same
/// header with one signature check.
struct VerifiedChain: Sendable {
    /// The intersection of the leaf's, the intermediate's and the root's validity.
    let validity: ClosedRange<Date>
    /// The leaf certificate's P-256 key.
    let leafKey: P256.Signing.PublicKey
    /// The decoded and checked header whose `x5c` is this chain.
    let header: JWSHeader
    /// The header's exact text with its dot, `base64url(header) "."`, by which the chain is
    /// found again: equal bytes, equal certificates.
    let headerText: [UInt8]
    /// The SHA-256 state after ``headerText``, from which a signing input's digest is carried
    /// on over its payload alone.
    let hashedHeader: SHA256

    /// A chain that verified, carried by the header `headerText` (with its dot).
    init(validity: ClosedRange<Date>, leafKey: P256.Signing.PublicKey, header: JWSHeader, headerText: [UInt8]) {
        self.validity = validity
        self.leafKey = leafKey
        self.header = header
        self.headerText = headerText
        var hasher = SHA256()
        headerText.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        self.hashedHeader = hasher
    }

    /// Whether `text` (a header with its dot) is this chain's header, byte for byte.
    func isCarried(by text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard headerText.count == text.count else { return false }
        return headerText.withUnsafeBufferPointer { own in
            guard let a = own.baseAddress, let b = text.baseAddress else { return own.isEmpty }
            return memcmp(a, b, own.count) == 0
        }
    }
}
