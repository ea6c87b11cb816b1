import Crypto
import Foundation
import StoreSyncAPI
import StoreSyncWire

/// Checks snapshots against the server's pinned Ed25519 public key: decode, recompute the
/// canonical signed bytes, verify the signature. Nothing else makes a snapshot trusted.
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

    /// Decodes and verifies a snapshot's JSON.
    func verify(bytes: Data, accountId: UUID) throws(SnapshotTrustFailure) -> Snapshot {
        let snapshot: Snapshot
        do {
            snapshot = try StoreSyncJSON.makeDecoder().decode(Snapshot.self, from: bytes)
        } catch {
            throw .malformed("\(error)")
        }
        try verify(snapshot, accountId: accountId)
        return snapshot
    }

    /// Verifies a decoded snapshot's signature and that it describes the expected account.
    func verify(_ snapshot: Snapshot, accountId: UUID) throws(SnapshotTrustFailure) {
        let key = try key.get()
        guard let signature = Data(base64Encoded: snapshot.signature) else { throw .badSignature }
        let signed: Data
        do {
            signed = try snapshot.signedBytes()
        } catch {
            throw .malformed("\(error)")
        }
        guard key.isValidSignature(signature, for: signed) else { throw .badSignature }
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
