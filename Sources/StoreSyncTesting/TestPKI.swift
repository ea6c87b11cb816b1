public import Crypto
public import Foundation
public import SwiftASN1
public import X509

/// A throwaway certificate hierarchy shaped like Apple's App Store PKI, made at test time:
/// a root, an intermediate with Apple's WWDR marker and a leaf with Apple's receipt-signing
/// marker, all EC P-256.
///
/// Trust ``root`` (``rootPEM``) in a verifier and sign with ``leafKey`` and ``x5c``
/// (``AppStoreTestSigner`` does both). Variants for rejection tests come from ``make(validity:leafValidity:leafMarker:intermediateMarker:name:)``
/// and ``selfSignedLeaf(validity:)``.
public struct TestPKI: Sendable {
    /// Apple's marker on App Store leaf certificates.
    public static let appleLeafOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    /// Apple's marker on WWDR intermediate certificates.
    public static let appleIntermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// 2000-01-01 to 2100-01-01: wide enough for any date a test signs at.
    public static let defaultValidity = Date(timeIntervalSince1970: 946_684_800)...Date(timeIntervalSince1970: 4_102_444_800)

    /// The self-signed root to trust.
    public var root: Certificate
    /// The intermediate, issued by the root.
    public var intermediate: Certificate
    /// The signing certificate, issued by the intermediate.
    public var leaf: Certificate
    /// The leaf's private key: what signs the JWS.
    public var leafKey: P256.Signing.PrivateKey
    /// The root's private key, to issue further certificates.
    public var rootKey: P256.Signing.PrivateKey
    /// The intermediate's private key, to issue further leaves.
    public var intermediateKey: P256.Signing.PrivateKey

    /// The root as PEM, e.g. to write a `STORESYNC_TRUSTED_ROOTS` file.
    public var rootPEM: String {
        (try? root.serializeAsPEM().pemString) ?? ""
    }

    /// The JWS `x5c` header: base64 DER of leaf, intermediate, root.
    public var x5c: [String] { [leaf, intermediate, root].map(Self.base64DER) }

    /// Base64 (not base64url) of a certificate's DER, as `x5c` carries it.
    ///
    /// - Parameter certificate: The certificate.
    /// - Returns: The base64 text, empty if the certificate cannot be serialised.
    public static func base64DER(_ certificate: Certificate) -> String {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(certificate)) != nil else { return "" }
        return Data(serializer.serializedBytes).base64EncodedString()
    }

    /// Makes a new hierarchy with fresh keys.
    ///
    /// - Parameters:
    ///   - validity: The validity of every certificate; ``defaultValidity`` when `nil`.
    ///   - leafValidity: The leaf's own validity (e.g. already expired); `validity` when `nil`.
    ///   - leafMarker: The leaf's marker extension.
    ///   - intermediateMarker: The intermediate's marker extension.
    ///   - name: A name to tell hierarchies apart in subjects.
    /// - Returns: The hierarchy.
    /// - Throws: Errors from certificate construction (none expected).
    public static func make(
        validity: ClosedRange<Date>? = nil,
        leafValidity: ClosedRange<Date>? = nil,
        leafMarker: TestPKIMarker = .apple,
        intermediateMarker: TestPKIMarker = .apple,
        name: String = "StoreSync Test"
    ) throws -> TestPKI {
        let validity = validity ?? defaultValidity
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("\(name) Root CA"); OrganizationName("StoreSync Tests") }
        let intermediateName = try DistinguishedName {
            CommonName("\(name) WWDR Intermediate"); OrganizationName("StoreSync Tests")
        }
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
            notValidBefore: validity.lowerBound, notValidAfter: validity.upperBound,
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: validity.lowerBound, notValidAfter: validity.upperBound,
            issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                try marker(intermediateMarker, apple: appleIntermediateOID)
            },
            issuerPrivateKey: .init(rootKey))
        let leaf = try issueLeaf(
            key: leafKey, validity: leafValidity ?? validity, marker: leafMarker,
            issuer: intermediateName, issuerKey: intermediateKey, name: name)
        return TestPKI(
            root: root, intermediate: intermediate, leaf: leaf, leafKey: leafKey,
            rootKey: rootKey, intermediateKey: intermediateKey)
    }

    /// A leaf with Apple's leaf marker that signs itself instead of being issued by the
    /// intermediate: a forgery a verifier must refuse.
    ///
    /// - Parameter validity: Its validity; ``defaultValidity`` when `nil`.
    /// - Returns: The certificate and its key.
    /// - Throws: Errors from certificate construction (none expected).
    public func selfSignedLeaf(validity: ClosedRange<Date>? = nil) throws
        -> (certificate: Certificate, key: P256.Signing.PrivateKey)
    {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("Self-Signed Receipt Signing") }
        let certificate = try Self.issueLeaf(
            key: key, validity: validity ?? Self.defaultValidity, marker: .apple,
            issuer: name, issuerKey: key, name: "Self-Signed")
        return (certificate, key)
    }

    private static func issueLeaf(
        key: P256.Signing.PrivateKey, validity: ClosedRange<Date>, marker leafMarker: TestPKIMarker,
        issuer: DistinguishedName, issuerKey: P256.Signing.PrivateKey, name: String
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: validity.lowerBound, notValidAfter: validity.upperBound,
            issuer: issuer,
            subject: try DistinguishedName { CommonName("\(name) Receipt Signing"); OrganizationName("StoreSync Tests") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try marker(leafMarker, apple: appleLeafOID)
            },
            issuerPrivateKey: .init(issuerKey))
    }

    /// The marker extension, as Apple encodes it: non-critical, value DER NULL.
    private static func marker(_ marker: TestPKIMarker, apple: ASN1ObjectIdentifier) throws -> Certificate.Extensions {
        let null: ArraySlice<UInt8> = [0x05, 0x00]
        switch marker {
        case .apple: return try Certificate.Extensions([.init(oid: apple, critical: false, value: null)])
        case .missing: return try Certificate.Extensions([])
        case .other(let oid): return try Certificate.Extensions([.init(oid: oid, critical: false, value: null)])
        }
    }
}
