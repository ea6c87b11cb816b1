import SwiftASN1
import X509

/// The extensions Apple puts in its App Store signing certificates, by which the verifier
/// knows a chain is Apple's App Store chain and not just any chain under the root.
enum AppleCertificateMarkers {
    /// On the leaf: "Mac App Store and iTunes Store Receipt Signing".
    static let leaf: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    /// On the intermediate: "Apple Worldwide Developer Relations Certification Authority".
    static let intermediate: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
}

extension Certificate {
    /// Whether the certificate carries an extension with this identifier.
    func hasExtension(_ oid: ASN1ObjectIdentifier) -> Bool {
        extensions.contains { $0.oid == oid }
    }
}
