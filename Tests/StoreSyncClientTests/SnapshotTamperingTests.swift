import Crypto
import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncWire
import Testing

/// What a forger holding a genuine snapshot can do with it, now that the signature covers its
/// text as received (`{"signature":"X",REST` checked as `{REST`): nothing a decoder reads from
/// it can change, and falling back to the canonical check only ever verifies what it decodes.
@Suite struct SnapshotTamperingTests {
    let key = Curve25519.Signing.PrivateKey()
    let accountId = UUID()

    var verifier: SnapshotVerifier { SnapshotVerifier(base64PublicKey: key.publicKey.rawRepresentation.base64EncodedString()) }

    var snapshot: Snapshot {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        return Snapshot(
            accountId: accountId, version: 3, generatedAt: now, validUntil: now.addingTimeInterval(3600),
            entitlements: [Entitlement(
                entitlementId: "premium", productId: "monthly", originalTransactionId: "1",
                expiresAt: now.addingTimeInterval(86_400), ownershipType: .purchased, source: .autoRenewable,
                environment: .production)],
            transactions: [])
    }

    /// The snapshot as the server writes it, with `edit` applied to the text after the
    /// signature member and that text signed again (as a later server release would write it).
    func serverLayout(_ edit: (String) -> String = { $0 }) throws -> String {
        let body = try snapshot.body { try key.signature(for: $0).base64EncodedString() }
        let text = String(decoding: body, as: UTF8.self)
        let comma = try #require(text.firstIndex(of: ","))
        let rest = edit(String(text[text.index(after: comma)...]))
        return #"{"signature":""# + (try key.signature(for: Data(("{" + rest).utf8)).base64EncodedString()) + #"","# + rest
    }

    /// A member this version does not know, as a later server adds it.
    let added: (String) -> String = { #""addedAtTop":{"tier":"gold"},"# + $0 }

    func verify(_ text: String) throws -> Snapshot {
        try verifier.verify(bytes: Data(text.utf8), accountId: accountId)
    }

    @Test func snapshotInTheServersLayoutWithAMemberThisVersionDoesNotKnowVerifies() throws {
        #expect(try verify(try serverLayout(added)).version == 3)
        #expect(try verify(try serverLayout(added) + "\n").version == 3, "whitespace after the object is not signed text")
    }

    @Test func changingAnyByteAfterTheSignatureMemberIsRefused() throws {
        let text = try serverLayout(added)
        let bytes = Array(text.utf8)
        let restStart = try #require(bytes.firstIndex(of: UInt8(ascii: ",")))
        for index in restStart..<bytes.count {
            var edited = bytes
            edited[index] ^= 0x01
            #expect(throws: SnapshotTrustFailure.self, "byte \(index)") {
                try verifier.verify(bytes: Data(edited), accountId: accountId)
            }
        }
    }

    @Test func movingTheSignatureMemberLeavesOnlyTheCanonicalCheck() throws {
        let text = try serverLayout(added)
        let comma = try #require(text.firstIndex(of: ","))
        let signatureMember = text[text.index(after: text.startIndex)..<comma]
        let moved = "{" + text[text.index(after: comma)...].dropLast() + "," + signatureMember + "}"
        #expect(throws: SnapshotTrustFailure.badSignature, "the added member is not among the canonical bytes") {
            try verify(moved)
        }
    }

    @Test func aMemberRepeatedWithAnotherValueNeverVerifiesAsThatValue() throws {
        let text = try serverLayout(added)
        let comma = try #require(text.firstIndex(of: ","))
        let afterSignature = text.index(after: comma)
        let forgeries = [
            // Inside the signed text: it is no longer what was signed.
            text[..<afterSignature] + #""version":99,"# + text[afterSignature...],
            text.dropLast() + #","version":99}"#,
            // Before the signature member: only the canonical check is left, over what decodes.
            #"{"version":99,"# + text.dropFirst(),
            // A second signature member, the first one's value repeated.
            text[..<afterSignature] + text[text.index(after: text.startIndex)..<afterSignature] + text[afterSignature...],
        ]
        for forged in forgeries {
            #expect(throws: SnapshotTrustFailure.self, "\(forged.prefix(120))") { try verify(String(forged)) }
        }

        // Without a member this version does not know, the canonical check of a repeated
        // member verifies only if the decoder read the signed value.
        let plain = try serverLayout()
        if let verified = try? verify(#"{"version":99,"# + plain.dropFirst()) {
            #expect(verified.version == 3)
        }
    }

    @Test func removingOrReplacingTheSignatureIsRefused() throws {
        let text = try serverLayout(added)
        let comma = try #require(text.firstIndex(of: ","))
        #expect(throws: SnapshotTrustFailure.badSignature) { try verify("{" + text[text.index(after: comma)...]) }

        let signature = try Curve25519.Signing.PrivateKey().signature(for: Data("{}".utf8)).base64EncodedString()
        #expect(throws: SnapshotTrustFailure.badSignature) {
            try verify(#"{"signature":""# + signature + #"","# + text[text.index(after: comma)...])
        }
    }
}
