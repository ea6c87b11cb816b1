import Crypto
import Foundation
import Logging
import StoreSyncAPI

/// Signs snapshots with the server's Ed25519 key so devices can trust a cached snapshot
/// offline and notice an edited one.
struct SnapshotSigner: Sendable {
    private let key: Curve25519.Signing.PrivateKey

    /// The configured key, or — outside Production — an ephemeral one, announced loudly,
    /// because devices that pinned its public key stop trusting snapshots after a restart.
    init(rawKey: Data?, logger: Logger) throws {
        if let rawKey {
            key = try Curve25519.Signing.PrivateKey(rawRepresentation: rawKey)
        } else {
            key = Curve25519.Signing.PrivateKey()
            logger.warning(
                "STORESYNC_SIGNING_KEY is not set: snapshots are signed with an ephemeral key that changes at every start",
                metadata: ["storesync.public_key": "\(key.publicKey.rawRepresentation.base64EncodedString())"])
        }
    }

    /// The raw 32-byte public key, base64: what clients pin.
    var publicKey: String { key.publicKey.rawRepresentation.base64EncodedString() }

    /// Signs the snapshot's canonical bytes.
    func sign(_ snapshot: Snapshot) throws -> Snapshot {
        var signed = snapshot
        signed.signature = try key.signature(for: snapshot.signedBytes()).base64EncodedString()
        return signed
    }
}
