import Crypto
import Foundation
import StoreSyncAPI
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Devices check a snapshot's signature over its JSON as received with the `signature` member
/// taken out: `{"signature":"X",REST` is checked as `{REST`. That holds only if every answer
/// that carries a signed snapshot writes it in exactly that layout; these check the rule on
/// real answers, spelled out here on the text rather than through the client's parser.
@Suite struct SnapshotSignatureLayoutTests {
    @Test func everyAnswerCarryingASignedSnapshotIsSignedOverItsTextWithoutTheSignature() async throws {
        try await withServer { server in
            let key = try Curve25519.Signing.PublicKey(
                rawRepresentation: try #require(Data(base64Encoded: server.signingPublicKey)))
            let account = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now())

            let upload = try await server.upload(server.signer.signTransaction(purchase), token: account.token)
            try expectRuleHolds(inSyncAnswer: upload.body, key: key, "POST /v1/transactions")

            let restore = try await server.send(
                "POST", "/v1/restore", token: account.token,
                json: RestoreRequest(entries: [server.entry(purchase)], userInitiated: true))
            #expect(restore.status == 200)
            try expectRuleHolds(inSyncAnswer: restore.body, key: key, "POST /v1/restore")

            // The second lookup is answered from the server's snapshot cache.
            for attempt in ["first", "cached"] {
                let lookup = try await server.send("GET", "/v1/entitlements", token: account.token)
                #expect(lookup.status == 200)
                try expectRuleHolds(inSnapshot: lookup.body, key: key, "GET /v1/entitlements (\(attempt))")
            }

            let admin = ["Authorization": "Bearer \(server.adminKey)"]
            let byAccount = try await server.send(
                "GET", "/v1/admin/accounts/\(account.accountId.uuidString)/entitlements", headers: admin)
            #expect(byAccount.status == 200)
            try expectRuleHolds(inSnapshot: byAccount.body, key: key, "admin lookup by account")
            let byToken = try await server.send(
                "GET", "/v1/admin/entitlements?appAccountToken=\(account.appAccountToken.uuidString)", headers: admin)
            #expect(byToken.status == 200)
            try expectRuleHolds(inSnapshot: byToken.body, key: key, "admin lookup by appAccountToken")
        }
    }

    /// A sync answer is `{"snapshot":OBJECT,"verdicts":[…]}`: its members in canonical order.
    private func expectRuleHolds(inSyncAnswer body: Data, key: Curve25519.Signing.PublicKey, _ route: String) throws {
        let text = String(decoding: body, as: UTF8.self)
        let prefix = #"{"snapshot":"#
        #expect(text.hasPrefix(prefix), "\(route): \(text.prefix(40))")
        let verdicts = try #require(text.range(of: #","verdicts":["#, options: .backwards), "\(route)")
        let object = text[text.index(text.startIndex, offsetBy: prefix.count)..<verdicts.lowerBound]
        try expectRuleHolds(inSnapshot: Data(object.utf8), key: key, route)
    }

    private func expectRuleHolds(inSnapshot object: Data, key: Curve25519.Signing.PublicKey, _ route: String) throws {
        let text = String(decoding: object, as: UTF8.self)
        let prefix = #"{"signature":""#
        #expect(text.hasPrefix(prefix), "\(route): the signature is the first member")
        let afterPrefix = text.dropFirst(prefix.count)
        let close = try #require(afterPrefix.firstIndex(of: "\""), "\(route)")
        let signature = try #require(Data(base64Encoded: String(afterPrefix[..<close])), "\(route)")
        let rest = afterPrefix[afterPrefix.index(after: close)...]
        #expect(rest.hasPrefix(","), "\(route)")
        let signed = "{" + rest.dropFirst()
        #expect(key.isValidSignature(signature, for: Data(signed.utf8)), "\(route): the signature covers {REST")
        #expect(signed.hasSuffix("}"), "\(route): nothing follows the object")
        #expect(!signed.contains(#""signature":"#), "\(route): no second signature member")
    }
}
