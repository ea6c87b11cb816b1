import Crypto
import Foundation
import StoreSyncCore
import SwiftASN1
public import X509

extension VerifierConfiguration {
    /// SHA-256 of Apple Root CA - G3's DER, as Apple publishes it: the bundled file must match.
    static let appleRootCAG3Fingerprint = "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"

    /// Apple Root CA - G3, read from the module's bundled resource.
    ///
    /// - Throws: ``VerifierConfigurationError/bundledRootUnavailable(_:)`` when the resource is
    ///   missing or is not the certificate Apple publishes.
    public static var appleRootCAG3: Certificate {
        get throws { try bundledAppleRoot.get() }
    }

    /// Parsed once: the resource never changes while the process runs.
    static let bundledAppleRoot: Result<Certificate, VerifierConfigurationError> = Result {
        () throws(VerifierConfigurationError) -> Certificate in
        guard let url = Bundle.module.url(forResource: "AppleRootCA-G3", withExtension: "pem"),
            let pem = try? String(contentsOf: url, encoding: .utf8)
        else { throw .bundledRootUnavailable("resource AppleRootCA-G3.pem not found") }
        guard let certificate = try? Certificate(pemEncoded: pem) else {
            throw .bundledRootUnavailable("AppleRootCA-G3.pem is not a PEM certificate")
        }
        guard certificate.sha256Fingerprint == appleRootCAG3Fingerprint else {
            throw .bundledRootUnavailable("AppleRootCA-G3.pem does not have Apple's published fingerprint")
        }
        return certificate
    }

    /// Reads trusted roots from a PEM file holding one or more certificates.
    ///
    /// - Parameter pemFile: The path of the PEM file.
    /// - Returns: Every certificate of the file, in order.
    /// - Throws: ``VerifierConfigurationError/unreadableTrustedRoots(path:reason:)`` when the file
    ///   cannot be read, holds a block that is not a certificate, or holds none.
    public static func loadTrustedRoots(pemFile: String) throws(VerifierConfigurationError) -> [Certificate] {
        let text: String
        do {
            text = try String(contentsOfFile: pemFile, encoding: .utf8)
        } catch {
            throw .unreadableTrustedRoots(path: pemFile, reason: "the file cannot be read as UTF-8 text")
        }
        return try parseTrustedRoots(pem: text, source: pemFile)
    }

    /// Parses PEM text holding one or more certificates.
    ///
    /// - Parameters:
    ///   - pem: The PEM text.
    ///   - source: Where the text came from, for the error message.
    /// - Returns: Every certificate, in order.
    /// - Throws: ``VerifierConfigurationError/unreadableTrustedRoots(path:reason:)``.
    public static func parseTrustedRoots(pem: String, source: String = "PEM text") throws(VerifierConfigurationError)
        -> [Certificate]
    {
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: pem)
        } catch {
            throw .unreadableTrustedRoots(path: source, reason: "the text is not valid PEM")
        }
        var certificates: [Certificate] = []
        for (index, document) in documents.enumerated() {
            guard document.discriminator == "CERTIFICATE", let certificate = try? Certificate(pemDocument: document)
            else {
                throw .unreadableTrustedRoots(path: source, reason: "PEM block \(index + 1) is not a certificate")
            }
            certificates.append(certificate)
        }
        guard !certificates.isEmpty else {
            throw .unreadableTrustedRoots(path: source, reason: "the file holds no certificate")
        }
        return certificates
    }
}

extension Certificate {
    /// Lower-case hex SHA-256 of the DER encoding: the fingerprint tools and Apple print.
    var sha256Fingerprint: String {
        guard let der = try? derBytes else { return "" }
        return SHA256.hash(data: der).hexString
    }

    /// The DER encoding; a parsed certificate always re-serialises.
    var derBytes: [UInt8] {
        get throws {
            var serializer = DER.Serializer()
            try serializer.serialize(self)
            return serializer.serializedBytes
        }
    }
}
