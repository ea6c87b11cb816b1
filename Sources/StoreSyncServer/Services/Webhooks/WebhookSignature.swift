import Crypto
import Foundation
import StoreSyncCore

/// The `StoreSync-Signature` header of a webhook request: `t=<unix seconds>,v1=<hex
/// HMAC-SHA256(secret, "<t>.<raw body>")>`, as Stripe signs its webhooks. The time is signed
/// with the body so a receiver can refuse an old request replayed.
enum WebhookSignature {
    static let headerName = "StoreSync-Signature"

    /// The header value for `body` sent at `time`.
    ///
    /// - Parameters:
    ///   - body: The raw request body.
    ///   - secret: `STORESYNC_WEBHOOK_SECRET`.
    ///   - time: When it is sent; whole seconds are signed.
    /// - Returns: `t=…,v1=…`.
    static func header(for body: Data, secret: String, at time: Date) -> String {
        let timestamp = Int64(time.timeIntervalSince1970.rounded(.down))
        var signed = Data("\(timestamp).".utf8)
        signed.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8)))
        return "t=\(timestamp),v1=\(mac.hexString)"
    }
}
