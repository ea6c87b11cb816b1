import ArgumentParser
import Crypto
import Foundation

/// Prints a new Ed25519 key pair for signing snapshots.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Print a new Ed25519 key pair for STORESYNC_SIGNING_KEY.",
        discussion: """
            Put the private key in STORESYNC_SIGNING_KEY (keep it secret) and pin the public key \
            in the client (StoreSyncClient's configuration); GET /v1/signing-key serves it too.
            """
    )

    func run() {
        let key = Curve25519.Signing.PrivateKey()
        print("STORESYNC_SIGNING_KEY=\(key.rawRepresentation.base64EncodedString())")
        print("public key (pin in the client): \(key.publicKey.rawRepresentation.base64EncodedString())")
    }
}
