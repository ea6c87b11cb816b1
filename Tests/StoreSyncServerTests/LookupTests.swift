import Crypto
import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import StoreSyncWire
import Testing

@Suite struct LookupTests {
    @Test func theETagIsTheVersionAndAMatchingIfNoneMatchIs304() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let first = try await server.send("GET", "/v1/entitlements", token: account.token)
            let etag = try #require(first.header("ETag"))
            let again = try await server.send(
                "GET", "/v1/entitlements", token: account.token, headers: ["If-None-Match": etag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)

            _ = try await server.buy(TestPurchases.record(purchased: server.clock.now()), token: account.token)
            let changed = try await server.send(
                "GET", "/v1/entitlements", token: account.token, headers: ["If-None-Match": etag])
            #expect(changed.status == 200)
            #expect(changed.header("ETag") != etag)
        }
    }

    /// An upload's and a restore's answers carry their snapshot's ETag, the one a lookup gives
    /// it: sent back, it is a 304, and no cache or standby may answer the device with less. A
    /// dry run's preview, of nothing stored, carries none.
    @Test func aSyncsAnswerCarriesItsSnapshotsETag() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let uploaded = try await server.upload(
                server.signer.signTransaction(TestPurchases.record(purchased: server.clock.now())), token: account.token)
            let uploadTag = try #require(uploaded.header("ETag"))
            let lookup = try await server.send("GET", "/v1/entitlements", token: account.token)
            #expect(lookup.header("ETag") == uploadTag)
            let held = try await server.send("GET", "/v1/entitlements", token: account.token, headers: ["If-None-Match": uploadTag])
            #expect(held.status == 304)

            let restore = { (dryRun: Bool) in
                try await server.send(
                    "POST", "/v1/restore", token: account.token,
                    json: RestoreRequest(
                        entries: [server.entry(TestPurchases.record(purchased: server.clock.now()))], userInitiated: true,
                        dryRun: dryRun))
            }
            let restored = try await restore(false)
            let restoreTag = try #require(restored.header("ETag"))
            #expect(restoreTag != uploadTag)
            #expect(try await server.send("GET", "/v1/entitlements", token: account.token).header("ETag") == restoreTag)
            #expect(try await restore(true).header("ETag") == nil)
        }
    }

    /// A lookup that reaches the database answers 304 for a held version as a cached one does
    /// (and builds no snapshot for it): with the cache off, and once a cached entry aged out.
    @Test(arguments: [false, true])
    func aMatchingIfNoneMatchIs304AlsoWhenTheLookupReachesTheDatabase(cacheOn: Bool) async throws {
        try await withServer(configure: { if !cacheOn { $0.snapshotCacheEntries = 0 } }) { server in
            let account = try await server.signUp()
            _ = try await server.buy(TestPurchases.record(purchased: server.clock.now()), token: account.token)
            let etag = try #require(try await server.send("GET", "/v1/entitlements", token: account.token).header("ETag"))
            server.clock.advance(by: 120)

            for held in [etag, "\"0-stale\", W/\(etag)", "*"] {
                let device = try await server.send("GET", "/v1/entitlements", token: account.token, headers: ["If-None-Match": held])
                #expect(device.status == 304, "\(held)")
                #expect(device.header("ETag") == etag)
                #expect(device.body.isEmpty)
            }
            let admin = try await server.send(
                "GET", "/v1/admin/accounts/\(account.accountId)/entitlements", token: server.adminKey,
                headers: ["If-None-Match": etag])
            #expect(admin.status == 304)

            let stale = try await server.send("GET", "/v1/entitlements", token: account.token, headers: ["If-None-Match": "\"0-stale\""])
            #expect(stale.status == 200)
            #expect(try stale.decode(Snapshot.self).entitlements.map(\.entitlementId) == ["premium"])
        }
    }

    @Test func theAccountThatLosesAPurchaseGetsANewETag() async throws {
        try await withServer { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(purchase, token: x.token)
            let etag = try #require(try await server.send("GET", "/v1/entitlements", token: x.token).header("ETag"))
            _ = try await server.restore([server.entry(purchase)], token: y.token)
            let after = try await server.send("GET", "/v1/entitlements", token: x.token, headers: ["If-None-Match": etag])
            #expect(after.status == 200)
            #expect(try after.decode(Snapshot.self).entitlements.isEmpty)
        }
    }

    @Test func snapshotsVerifyWithThePublishedKeyAndEditedOnesDoNot() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            _ = try await server.buy(TestPurchases.record(purchased: server.clock.now()), token: account.token)
            let keyResponse = try await server.send("GET", "/v1/signing-key").decode(SigningKeyResponse.self)
            #expect(keyResponse.algorithm == "Ed25519")
            #expect(keyResponse.publicKey == server.signingPublicKey)
            let key = try Curve25519.Signing.PublicKey(rawRepresentation: try #require(Data(base64Encoded: keyResponse.publicKey)))

            var snapshot = try await server.snapshot(token: account.token)
            let signature = try #require(Data(base64Encoded: snapshot.signature))
            #expect(key.isValidSignature(signature, for: try snapshot.signedBytes()))
            snapshot.validUntil = snapshot.validUntil.addingTimeInterval(365 * 86_400)
            #expect(!key.isValidSignature(signature, for: try snapshot.signedBytes()))
        }
    }

    @Test func validUntilIsNeverLaterThanTheEarliestExpiryItVouchesFor() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let expiry = now.addingTimeInterval(3600)
            _ = try await server.buy(
                TestPurchases.record(
                    TestCatalog.monthly, type: .autoRenewable, purchased: now.addingTimeInterval(-60), expires: expiry,
                    group: TestCatalog.subscriptionGroup),
                token: account.token)
            let snapshot = try await server.snapshot(token: account.token)
            #expect(snapshot.validUntil == expiry)

            let lifetime = try await server.signUp()
            _ = try await server.buy(TestPurchases.record(purchased: now), token: lifetime.token)
            let lifetimeSnapshot = try await server.snapshot(token: lifetime.token)
            #expect(lifetimeSnapshot.validUntil == lifetimeSnapshot.generatedAt.addingTimeInterval(259_200))
        }
    }

    @Test func adminLookupsByAccountIdAndByAppAccountToken() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now(), token: account.appAccountToken)
            _ = try await server.buy(purchase, token: account.token)

            let byId = try await server.send("GET", "/v1/admin/accounts/\(account.accountId)/entitlements", token: server.adminKey)
            #expect(byId.status == 200)
            #expect(try byId.decode(Snapshot.self).entitlements.map(\.entitlementId) == ["premium"])
            let byToken = try await server.send(
                "GET", "/v1/admin/entitlements?appAccountToken=\(account.appAccountToken)", token: server.adminKey)
            #expect(try byToken.decode(Snapshot.self).accountId == account.accountId)

            let historyResponse = try await server.send(
                "GET", "/v1/admin/purchases/\(purchase.originalTransactionId)", token: server.adminKey)
            #expect(historyResponse.status == 200, "\(String(decoding: historyResponse.body, as: UTF8.self))")
            let history = try historyResponse.decode(PurchaseHistory.self)
            #expect(history.ownerAccountId == account.accountId)
            #expect(history.transactions.map(\.transactionId) == [purchase.transactionId])
            #expect(history.events.map(\.kind) == ["purchaseClaimed"])
        }
    }

    @Test(arguments: [
        ("/v1/admin/accounts/\(UUID())/entitlements", 404), ("/v1/admin/accounts/not-a-uuid/entitlements", 400),
        ("/v1/admin/entitlements?appAccountToken=\(UUID())", 404), ("/v1/admin/entitlements", 400),
        ("/v1/admin/entitlements?appAccountToken=zzz", 400), ("/v1/admin/purchases/999", 404),
    ])
    func adminLookupsOfWhatDoesNotExist(path: String, status: Int) async throws {
        try await withServer { server in
            let response = try await server.send("GET", path, token: server.adminKey)
            #expect(response.status == status)
            #expect(response.header("Content-Type") == "application/problem+json")
        }
    }

    @Test func adminRoutesNeedTheKeyAndADeviceTokenIsNotIt() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let path = "/v1/admin/accounts/\(account.accountId)/entitlements"
            #expect(try await server.send("GET", path).status == 401)
            #expect(try await server.send("GET", path, token: account.token).status == 401)
            #expect(try await server.send("GET", path, token: server.adminKey + "x").status == 401)
        }
    }

    @Test func adminRoutesDoNotExistWithoutAKey() async throws {
        try await withServer(configure: { $0.adminAPIKey = nil }) { server in
            let account = try await server.signUp()
            let response = try await server.send("GET", "/v1/admin/accounts/\(account.accountId)/entitlements", token: "anything-at-all-here")
            #expect(response.status == 404)
        }
    }

    @Test func aDeviceOnlyEverSeesItsOwnAccount() async throws {
        try await withServer { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(purchase, token: x.token)
            // Y presents X's transaction without its signed data: nothing to go on.
            let unsigned = try await server.restore([purchase], token: y.token)
            #expect(unsigned.verdicts.map(\.verdict) == [.rejected])
            #expect(try await server.snapshot(token: y.token).accountId == y.accountId)
            #expect(try await server.snapshot(token: y.token).transactions.isEmpty)
            #expect(try await server.entitlementIds(token: x.token) == ["premium"])
        }
    }
}
