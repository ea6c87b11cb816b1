@testable import AppStoreVerification
import Crypto
import Foundation
import StoreSyncCore
import StoreSyncTesting
import SwiftASN1
import Testing
import X509

/// Apple's real App Store signing chain (public certificates, as Apple's own server
/// libraries test with) against the bundled Apple Root CA - G3: the default configuration
/// trusts what Apple actually signs with, and only that.
@Suite struct RealAppleChainTests {
    /// "Prod ECC Mac App Store and iTunes Store Receipt Signing", valid 2025-09-19 to 2027-10-13.
    static let leaf = "MIIEMTCCA7agAwIBAgIQR8KHzdn554Z/UoradNx9tzAKBggqhkjOPQQDAzB1MUQwQgYDVQQDDDtBcHBsZSBXb3JsZHdpZGUgRGV2ZWxvcGVyIFJlbGF0aW9ucyBDZXJ0aWZpY2F0aW9uIEF1dGhvcml0eTELMAkGA1UECwwCRzYxEzARBgNVBAoMCkFwcGxlIEluYy4xCzAJBgNVBAYTAlVTMB4XDTI1MDkxOTE5NDQ1MVoXDTI3MTAxMzE3NDcyM1owgZIxQDA+BgNVBAMMN1Byb2QgRUNDIE1hYyBBcHAgU3RvcmUgYW5kIGlUdW5lcyBTdG9yZSBSZWNlaXB0IFNpZ25pbmcxLDAqBgNVBAsMI0FwcGxlIFdvcmxkd2lkZSBEZXZlbG9wZXIgUmVsYXRpb25zMRMwEQYDVQQKDApBcHBsZSBJbmMuMQswCQYDVQQGEwJVUzBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABNnVvhcv7iT+7Ex5tBMBgrQspHzIsXRi0Yxfek7lv8wEmj/bHiWtNwJqc2BoHzsQiEjP7KFIIKg4Y8y0/nynuAmjggIIMIICBDAMBgNVHRMBAf8EAjAAMB8GA1UdIwQYMBaAFD8vlCNR01DJmig97bB85c+lkGKZMHAGCCsGAQUFBwEBBGQwYjAtBggrBgEFBQcwAoYhaHR0cDovL2NlcnRzLmFwcGxlLmNvbS93d2RyZzYuZGVyMDEGCCsGAQUFBzABhiVodHRwOi8vb2NzcC5hcHBsZS5jb20vb2NzcDAzLXd3ZHJnNjAyMIIBHgYDVR0gBIIBFTCCAREwggENBgoqhkiG92NkBQYBMIH+MIHDBggrBgEFBQcCAjCBtgyBs1JlbGlhbmNlIG9uIHRoaXMgY2VydGlmaWNhdGUgYnkgYW55IHBhcnR5IGFzc3VtZXMgYWNjZXB0YW5jZSBvZiB0aGUgdGhlbiBhcHBsaWNhYmxlIHN0YW5kYXJkIHRlcm1zIGFuZCBjb25kaXRpb25zIG9mIHVzZSwgY2VydGlmaWNhdGUgcG9saWN5IGFuZCBjZXJ0aWZpY2F0aW9uIHByYWN0aWNlIHN0YXRlbWVudHMuMDYGCCsGAQUFBwIBFipodHRwOi8vd3d3LmFwcGxlLmNvbS9jZXJ0aWZpY2F0ZWF1dGhvcml0eS8wHQYDVR0OBBYEFIFioG4wMMVA1ku9zJmGNPAVn3eqMA4GA1UdDwEB/wQEAwIHgDAQBgoqhkiG92NkBgsBBAIFADAKBggqhkjOPQQDAwNpADBmAjEA+qXnREC7hXIWVLsLxznjRpIzPf7VHz9V/CTm8+LJlrQepnmcPvGLNcX6XPnlcgLAAjEA5IjNZKgg5pQ79knF4IbTXdKv8vutIDMXDmjPVT3dGvFtsGRwXOywR2kZCdSrfeot"
    /// "Apple Worldwide Developer Relations Certification Authority G6", valid 2021-03-17 to 2036-03-19.
    static let intermediate = "MIIDFjCCApygAwIBAgIUIsGhRwp0c2nvU4YSycafPTjzbNcwCgYIKoZIzj0EAwMwZzEbMBkGA1UEAwwSQXBwbGUgUm9vdCBDQSAtIEczMSYwJAYDVQQLDB1BcHBsZSBDZXJ0aWZpY2F0aW9uIEF1dGhvcml0eTETMBEGA1UECgwKQXBwbGUgSW5jLjELMAkGA1UEBhMCVVMwHhcNMjEwMzE3MjAzNzEwWhcNMzYwMzE5MDAwMDAwWjB1MUQwQgYDVQQDDDtBcHBsZSBXb3JsZHdpZGUgRGV2ZWxvcGVyIFJlbGF0aW9ucyBDZXJ0aWZpY2F0aW9uIEF1dGhvcml0eTELMAkGA1UECwwCRzYxEzARBgNVBAoMCkFwcGxlIEluYy4xCzAJBgNVBAYTAlVTMHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEbsQKC94PrlWmZXnXgtxzdVJL8T0SGYngDRGpngn3N6PT8JMEb7FDi4bBmPhCnZ3/sq6PF/cGcKXWsL5vOteRhyJ45x3ASP7cOB+aao90fcpxSv/EZFbniAbNgZGhIhpIo4H6MIH3MBIGA1UdEwEB/wQIMAYBAf8CAQAwHwYDVR0jBBgwFoAUu7DeoVgziJqkipnevr3rr9rLJKswRgYIKwYBBQUHAQEEOjA4MDYGCCsGAQUFBzABhipodHRwOi8vb2NzcC5hcHBsZS5jb20vb2NzcDAzLWFwcGxlcm9vdGNhZzMwNwYDVR0fBDAwLjAsoCqgKIYmaHR0cDovL2NybC5hcHBsZS5jb20vYXBwbGVyb290Y2FnMy5jcmwwHQYDVR0OBBYEFD8vlCNR01DJmig97bB85c+lkGKZMA4GA1UdDwEB/wQEAwIBBjAQBgoqhkiG92NkBgIBBAIFADAKBggqhkjOPQQDAwNoADBlAjBAXhSq5IyKogMCPtw490BaB677CaEGJXufQB/EqZGd6CSjiCtOnuMTbXVXmxxcxfkCMQDTSPxarZXvNrkxU3TkUMI33yzvFVVRT4wxWJC994OsdcZ4+RGNsYDyR5gmdr0nDGg="
    /// October 2025, when Apple's libraries check this chain.
    static let effectiveDate = Date(timeIntervalSince1970: 1_761_962_975)

    private func chainVerifier() throws -> CertificateChainVerifier {
        CertificateChainVerifier(trustedRoots: [try VerifierConfiguration.appleRootCAG3])
    }

    private var x5c: [String] {
        get throws {
            [Self.leaf, Self.intermediate, TestPKI.base64DER(try VerifierConfiguration.appleRootCAG3)]
        }
    }

    @Test func bundledRootIsAppleRootCAG3() throws {
        let root = try VerifierConfiguration.appleRootCAG3
        #expect(root.sha256Fingerprint == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        #expect(String(describing: root.subject).contains("Apple Root CA - G3"))
    }

    @Test func defaultConfigurationTrustsOnlyTheBundledRoot() throws {
        let configuration = try VerifierConfiguration(bundleId: "com.example", appAppleId: 1, environment: .production)
        #expect(configuration.trustedRoots == [try VerifierConfiguration.appleRootCAG3])
        #expect(!configuration.allowUnverified)
    }

    @Test func applesRealChainVerifiesToTheBundledRootAtItsDate() async throws {
        let key = try await chainVerifier().leafKey(x5c: try x5c, at: Self.effectiveDate)

        let leaf = try Certificate(derEncoded: Array(try #require(Data(base64Encoded: Self.leaf))))
        #expect(key.rawRepresentation == P256.Signing.PublicKey(leaf.publicKey)?.rawRepresentation)
    }

    @Test func applesRealChainIsRefusedAfterTheLeafExpired() async throws {
        let after = Date(timeIntervalSince1970: 1_830_000_000)  // 2027-12
        await #expect(throws: VerificationError.certificateExpired) {
            try await chainVerifier().leafKey(x5c: try x5c, at: after)
        }
    }

    @Test func applesRealChainIsRefusedUnderATestRoot() async throws {
        let testRoot = try TestPKI.make().root
        let verifier = CertificateChainVerifier(trustedRoots: [testRoot])
        await #expect(throws: VerificationError.invalidChain) {
            try await verifier.leafKey(x5c: try x5c, at: Self.effectiveDate)
        }
    }

    @Test func applesIntermediateIsNotALeaf() async throws {
        let swapped = [Self.intermediate, Self.leaf, try x5c[2]]
        await #expect(throws: VerificationError.invalidCertificateOID) {
            try await chainVerifier().leafKey(x5c: swapped, at: Self.effectiveDate)
        }
    }
}
