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

    /// Signs the snapshot's canonical bytes where they are written into its JSON (encoding a
    /// snapshot is most of the cost of a lookup that reaches the database).
    ///
    /// - Parameter transactions: The snapshot's transactions already written, if they were.
    func sign(_ snapshot: Snapshot, transactions: WrittenTransactions? = nil) throws -> SignedSnapshot {
        var signature = ""
        let body = try snapshot.body(
            signedBy: { bytes in
                signature = try self.signature(of: bytes)
                return signature
            }, transactions: transactions)
        return SignedSnapshot(snapshot: snapshot.signed(signature), body: body)
    }

    /// A sync response's JSON: the verdicts, and the snapshot signed where it is written.
    func syncResponse(verdicts: [Verdict], snapshot: Snapshot) throws -> [UInt8] {
        try SyncResponse.body(verdicts: verdicts, snapshot: snapshot, signedBy: signature(of:))
    }

    /// Base64 of the signature over `bytes`.
    private func signature(of bytes: UnsafeRawBufferPointer) throws -> String {
        try key.signature(for: bytes).base64EncodedString()
    }
}

/// A signed snapshot and its JSON, ready to send.
struct SignedSnapshot: Sendable {
    let snapshot: Snapshot
    let body: [UInt8]
}
