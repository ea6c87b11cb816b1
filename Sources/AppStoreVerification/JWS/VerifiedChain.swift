import Crypto
import Foundation

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
}
