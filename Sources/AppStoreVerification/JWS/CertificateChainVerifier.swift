import Crypto
import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// Verifies a JWS's `x5c` chain up to the trusted roots and its ES256 signature with the
/// leaf key, caching chains that verified.
///
/// Certificate validity is judged at the payload's `signedDate`, as Apple's library does
/// offline: data signed while a certificate was valid stays verifiable after it expires.
struct CertificateChainVerifier: Sendable {
    private let roots: CertificateStore
    let cache: VerifiedChainCache

    /// Creates a verifier anchored at these roots.
    ///
    /// - Parameters:
    ///   - trustedRoots: The roots a chain must lead to.
    ///   - cacheCapacity: The most verified chains remembered.
    init(trustedRoots: [Certificate], cacheCapacity: Int = 64) {
        self.roots = CertificateStore(trustedRoots)
        self.cache = VerifiedChainCache(capacity: cacheCapacity)
    }

    /// Checks the chain and the signature of a parsed JWS.
    ///
    /// - Parameters:
    ///   - jws: The parsed token.
    ///   - signedDate: The payload's `signedDate`, at which certificate validity is judged.
    /// - Throws: ``VerificationError/invalidChain``, ``VerificationError/certificateExpired``,
    ///   ``VerificationError/invalidCertificateOID`` or ``VerificationError/invalidSignature``.
    func verify(_ jws: CompactJWS, signedAt signedDate: Date) async throws(VerificationError) {
        let (key, newChain) = try await leafKey(of: jws, at: signedDate)
        guard jws.signature.count == 64,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature),
            key.isValidSignature(signature, for: jws.signingInputDigest)
        else { throw .invalidSignature }
        // Cached only once a signature it carries has verified: a valid public chain in a header
        // spelled anew, under a forged signature, must not take a genuine chain's place.
        if let newChain { cache.insert(newChain) }
    }

    /// The leaf key of the chain a JWS's header carries, valid at `date`: from the cache when
    /// this exact header text verified before, else after full verification, with the chain
    /// for the caller to cache once the signature checks out.
    private func leafKey(of jws: CompactJWS, at date: Date) async throws(VerificationError)
        -> (key: P256.Signing.PublicKey, newChain: VerifiedChain?)
    {
        if let known = jws.knownChain {
            guard known.validity.contains(date) else { throw .certificateExpired }
            return (known.leafKey, nil)
        }
        let chain = try await verifyChain(of: jws.header, at: date, headerText: jws.headerText)
        return (chain.leafKey, chain)
    }

    /// The leaf key of a chain valid at `date`, after full verification; nothing is cached.
    func leafKey(x5c: [String]?, at date: Date) async throws(VerificationError) -> P256.Signing.PublicKey {
        try await verifyChain(of: JWSHeader(alg: "ES256", x5c: x5c), at: date, headerText: []).leafKey
    }

    /// Full verification of the header's leaf and intermediate up to a trusted root.
    private func verifyChain(
        of header: JWSHeader, at date: Date, headerText: [UInt8]
    ) async throws(VerificationError) -> VerifiedChain {
        guard let x5c = header.x5c, x5c.count == 3 else { throw .invalidChain }
        var certificates: [Certificate] = []
        for entry in x5c {
            guard let der = Data(base64Encoded: entry), !der.isEmpty,
                let certificate = try? Certificate(derEncoded: Array(der))
            else { throw .invalidChain }
            certificates.append(certificate)
        }
        let leaf = certificates[0]
        let intermediate = certificates[1]
        // Checked before chain building so each failure gets its own error; the policies
        // below check the same again as part of the chain.
        for certificate in [leaf, intermediate] where !certificate.isValid(at: date) {
            throw .certificateExpired
        }
        guard leaf.hasExtension(AppleCertificateMarkers.leaf),
            intermediate.hasExtension(AppleCertificateMarkers.intermediate)
        else { throw .invalidCertificateOID }
        guard let leafKey = P256.Signing.PublicKey(leaf.publicKey) else { throw .invalidChain }

        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy(fixedExpiryValidationTime: date)
            AppStoreChainPolicy()
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        guard case .validCertificate(let validated) = result else { throw .invalidChain }
        let validatedChain = Array(validated)
        guard validatedChain.count == 3, validatedChain[1] == intermediate else { throw .invalidChain }

        let notBefore = validatedChain.map(\.notValidBefore).max() ?? leaf.notValidBefore
        let notAfter = validatedChain.map(\.notValidAfter).min() ?? leaf.notValidAfter
        guard notBefore <= notAfter else { throw .certificateExpired }
        return VerifiedChain(validity: notBefore...notAfter, leafKey: leafKey, header: header, headerText: headerText)
    }
}

extension Certificate {
    /// Whether `date` falls inside the certificate's validity period.
    func isValid(at date: Date) -> Bool {
        notValidBefore <= date && date <= notValidAfter
    }
}
