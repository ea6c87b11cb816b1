import Crypto
import Foundation
import StoreSyncClient
import StoreSyncServer
import StoreSyncTesting

/// What a later release of the server answers: the snapshots the test server writes, edited
/// the way a newer server might write them (members or values this client does not know), and
/// signed again with the server's own key the way the server signs: over the snapshot object's
/// text without its `signature` member, `{"signature":"X",REST` checked as `{REST`.
struct NewerServerRelease: Sendable {
    /// The server's signing key.
    let key: Curve25519.Signing.PrivateKey
    /// Which answers it edits: paths of `GET /v1/entitlements`, `POST /v1/transactions`, `POST /v1/restore`.
    let paths: Set<String>
    /// The edit, applied to the snapshot's text after its signature member (`REST`).
    let edit: @Sendable (String) -> String

    init(
        _ server: TestServer, paths: Set<String> = ["/v1/entitlements", "/v1/transactions", "/v1/restore"],
        edit: @escaping @Sendable (String) -> String
    ) throws {
        guard let raw = server.configuration.signingKey else { throw TestServerError.unexpected("the server has no signing key") }
        key = try Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        self.paths = paths
        self.edit = edit
    }

    /// Members at the top level, in the first entitlement and in the first transaction, with
    /// values of every JSON shape (escapes and non-ASCII text included).
    static let addedMembers: @Sendable (String) -> String = { rest in
        #""addedAtTop":{"nested":[1,-2.5e3,"\u00e9t\u00e9 \"quoted\"","été",null,true,{}]},"# + rest
            .replacingOccurrences(of: #""entitlements":[{"#, with: #""entitlements":[{"addedToEntitlement":"gift","#)
            .replacingOccurrences(of: #""transactions":[{"#, with: #""transactions":[{"addedToTransaction":{"offer":["winBack"]},"#)
    }

    /// Values of the three closed vocabularies that this version does not know.
    static let unknownValues: @Sendable (String) -> String = { rest in
        rest.replacingOccurrences(of: #""environment":"sandbox""#, with: #""environment":"visionSandbox""#)
            .replacingOccurrences(of: #""ownershipType":"purchased""#, with: #""ownershipType":"giftedByFamily""#)
            .replacingOccurrences(of: #""evidence":"jws""#, with: #""evidence":"appTransaction""#)
    }

    /// The transport hook: edits the snapshot of the answers it covers.
    func rewrite(_ request: TransportRequest, _ response: TransportResponse) -> TransportResponse {
        guard response.status == 200, paths.contains(request.url.path) else { return response }
        let text = String(decoding: response.body, as: UTF8.self)
        var edited = response
        if request.url.path == "/v1/entitlements" {
            edited.body = Data(resigned(text).utf8)
        } else {
            // A sync answer: {"snapshot":OBJECT,"verdicts":[…]}, members in canonical order.
            let prefix = #"{"snapshot":"#
            guard text.hasPrefix(prefix), let verdicts = text.range(of: #","verdicts":["#, options: .backwards) else {
                return response
            }
            let object = String(text[text.index(text.startIndex, offsetBy: prefix.count)..<verdicts.lowerBound])
            edited.body = Data((prefix + resigned(object) + text[verdicts.lowerBound...]).utf8)
        }
        return edited
    }

    /// The object with `edit` applied to its text after the signature member, signed again.
    func resigned(_ object: String) -> String {
        let prefix = #"{"signature":""#
        guard object.hasPrefix(prefix) else { return object }
        let afterPrefix = object.dropFirst(prefix.count)
        guard let close = afterPrefix.firstIndex(of: "\"") else { return object }
        let rest = edit(String(afterPrefix[afterPrefix.index(close, offsetBy: 2)...]))
        guard let signature = try? key.signature(for: Data(("{" + rest).utf8)).base64EncodedString() else { return object }
        return prefix + signature + "\"," + rest
    }
}
