import Crypto
import Foundation
import Logging
import StoreSyncAPI
import StoreSyncWire

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

    /// Signs the snapshot's canonical bytes, and makes the response body from the same bytes
    /// (encoding a snapshot is most of the cost of a lookup that reaches the database).
    func sign(_ snapshot: Snapshot) throws -> SignedSnapshot {
        let signedBytes = try snapshot.signedBytes()
        let signature = try key.signature(for: signedBytes).base64EncodedString()
        return SignedSnapshot(
            snapshot: snapshot.signed(signature), body: Snapshot.body(signedBytes: signedBytes, signature: signature))
    }
}

/// A signed snapshot and its JSON, ready to send.
struct SignedSnapshot: Sendable {
    let snapshot: Snapshot
    let body: Data
}
