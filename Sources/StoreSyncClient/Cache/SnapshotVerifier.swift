import Crypto
import Foundation
import StoreSyncAPI
import StoreSyncWire

/// Checks snapshots against the server's pinned Ed25519 public key. Nothing else makes a
/// snapshot trusted.
///
/// The signature covers the snapshot's JSON as received with its `signature` member taken out
/// (``StoreSyncWire/ReceivedSnapshotSignature``), so members and values a newer server adds
/// verify although this version drops or reads them as something it knows. A snapshot whose
/// first member is not its signature (one an earlier client version cached after encoding it
/// again) is checked over the canonical bytes of what it decodes to, as those versions did.
struct SnapshotVerifier: Sendable {
    private let key: Result<Curve25519.Signing.PublicKey, SnapshotTrustFailure>

    /// - Parameter base64PublicKey: Base64 of the raw 32-byte public key.
    init(base64PublicKey: String) {
        guard let raw = Data(base64Encoded: base64PublicKey.trimmingCharacters(in: .whitespacesAndNewlines)),
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
        else {
            key = .failure(.misconfiguredKey)
            return
        }
        self.key = .success(key)
    }

    /// Decodes and verifies a snapshot's JSON: over the bytes as received when its first member
    /// is the signature (as the server writes it), else over the canonical bytes of what it
    /// decodes to.
    ///
    /// The snapshot is decoded from the same bytes, whole: the signature member is the only
    /// text the check leaves out, and the decoder ignores members it does not know.
    func verify(bytes: Data, accountId: UUID) throws(SnapshotTrustFailure) -> Snapshot {
        let snapshot = try decode(bytes)
        try verify(snapshot, receivedAs: bytes, accountId: accountId)
        return snapshot
    }

    /// Decodes a snapshot's JSON, without checking it.
    func decode(_ bytes: Data) throws(SnapshotTrustFailure) -> Snapshot {
        do {
            return try StoreSyncClient.decoder.decode(Snapshot.self, from: bytes)
        } catch {
            throw .malformed("\(error)")
        }
    }

    /// Verifies a snapshot decoded from `bytes` (all of them): over those bytes when they are in
    /// the server's layout, else over the canonical bytes of the snapshot.
    ///
    /// - Parameter bytes: The snapshot's JSON as received; `nil` when it is not at hand.
    func verify(_ snapshot: Snapshot, receivedAs bytes: Data?, accountId: UUID) throws(SnapshotTrustFailure) {
        guard let received = bytes.flatMap(ReceivedSnapshotSignature.init) else {
            return try verify(snapshot, accountId: accountId)
        }
        try check(received.signature, over: received.signedBytes)
        try check(snapshot, describes: accountId)
    }

    /// Verifies a decoded snapshot over its canonical bytes, and that it describes the expected
    /// account: for a snapshot whose bytes as received are not at hand or not in the server's
    /// layout. Members this version does not know are not among those bytes, so a snapshot
    /// that carries any does not verify this way.
    func verify(_ snapshot: Snapshot, accountId: UUID) throws(SnapshotTrustFailure) {
        let signed: Data
        do {
            signed = try snapshot.signedBytes()
        } catch {
            throw .malformed("\(error)")
        }
        try check(snapshot.signature, over: signed)
        try check(snapshot, describes: accountId)
    }

    private func check(_ signature: String, over signed: Data) throws(SnapshotTrustFailure) {
        let key = try key.get()
        guard let signature = Data(base64Encoded: signature), key.isValidSignature(signature, for: signed) else {
            throw .badSignature
        }
    }

    private func check(_ snapshot: Snapshot, describes accountId: UUID) throws(SnapshotTrustFailure) {
        guard snapshot.accountId == accountId else { throw .otherAccount(snapshot.accountId) }
    }
}

/// Why a snapshot was not trusted.
enum SnapshotTrustFailure: Error, Sendable, Hashable, CustomStringConvertible {
    case malformed(String)
    case badSignature
    case otherAccount(UUID)
    case misconfiguredKey

    var description: String {
        switch self {
        case .malformed(let detail): "the snapshot does not decode: \(detail)"
        case .badSignature: "the signature does not verify with the pinned server key"
        case .otherAccount(let id): "the snapshot describes another account (\(id.uuidString.lowercased()))"
        case .misconfiguredKey: "the pinned server key is not base64 of a 32-byte Ed25519 public key"
        }
    }
}
