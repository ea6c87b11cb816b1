import ArgumentParser
import Crypto
import Foundation

/// Prints a new Ed25519 key pair for signing snapshots or, with `--into`, keeps the server's
/// keys in a directory: made once, shown once.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Print a new Ed25519 key pair for STORESYNC_SIGNING_KEY, or keep keys in a directory (--into).",
        discussion: """
            Put the private key in STORESYNC_SIGNING_KEY (keep it secret) and pin the public key \
            in the client (StoreSyncClient's configuration); GET /v1/signing-key serves it too.

            With --into DIR (docker compose runs it before the server): makes DIR/signing-key and \
            DIR/admin-api-key when they do not exist yet, readable by their owner only, and prints \
            the signing public key that one time; the admin key is read from its file, never \
            printed (logs keep what is printed). Later runs keep the files. A key whose variable (STORESYNC_SIGNING_KEY, STORESYNC_ADMIN_API_KEY) \
            is set is taken from the environment and not made. Point the server at the files with \
            STORESYNC_SIGNING_KEY_FILE and STORESYNC_ADMIN_API_KEY_FILE.
            """
    )

    @Option(name: .customLong("into"), help: ArgumentHelp("Keep the keys in this directory.", valueName: "directory"))
    var directory: String?

    func run() throws {
        guard let directory else {
            let key = Curve25519.Signing.PrivateKey()
            print("STORESYNC_SIGNING_KEY=\(key.rawRepresentation.base64EncodedString())")
            print("public key (pin in the client): \(key.publicKey.rawRepresentation.base64EncodedString())")
            return
        }
        let keys = KeyDirectory(path: directory)
        let environment = ProcessInfo.processInfo.environment
        do {
            try keep(
                "signing-key", variable: "STORESYNC_SIGNING_KEY", in: keys, environment: environment,
                make: {
                    let key = Curve25519.Signing.PrivateKey()
                    let shown = "public key (pin in the client): \(key.publicKey.rawRepresentation.base64EncodedString())"
                    return (key.rawRepresentation.base64EncodedString(), shown)
                })
            try keep(
                "admin-api-key", variable: "STORESYNC_ADMIN_API_KEY", in: keys, environment: environment,
                make: {
                    // Never printed: `docker compose logs` and every log collector behind it keep
                    // what a start prints, and this key mints a session for any user.
                    (KeyDirectory.randomToken(), "admin API key (Authorization: Bearer …): read it from that file")
                })
        } catch {
            throw StartupFailure.exit("\(error)")
        }
    }

    /// Makes `name` in `keys` unless the environment sets `variable` or the file exists.
    private func keep(
        _ name: String, variable: String, in keys: KeyDirectory, environment: [String: String],
        make: () -> (secret: String, shown: String)
    ) throws {
        if let value = environment[variable], !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            print("storesync: \(variable) is taken from the environment; \(name) is not made")
            return
        }
        let (secret, shown) = make()
        if try keys.create(name, contents: secret) {
            print("storesync: made \(keys.url(of: name).path)")
            print("  \(shown)")
        } else {
            print("storesync: kept \(keys.url(of: name).path)")
        }
    }
}
