import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `DELETE /v1/accounts/current` (App Store guideline 5.1.1(v)): the password is checked again,
/// then the email, password hash, sessions and devices are erased, the purchases released and
/// the audit trail keeps only ids.
@Suite struct AccountDeletionTests {
    @Test func deletingErasesTheAccountEndsEverySessionAndFreesTheEmail() async throws {
        try await withServer { server in
            let email = "leaving-\(UUID().uuidString.prefix(6))@example.com"
            let phone = try await server.signUp(email: email)
            let tablet = try await server.send(
                "POST", "/v1/sessions", json: Credentials(email: email, password: TestServer.password, deviceName: "iPad"))
                .decode(SessionResponse.self)
            let bought = TestPurchases.record(purchased: server.clock.now(), token: phone.appAccountToken)
            _ = try await server.buy(bought, token: phone.token)
            #expect(try await server.send("GET", "/v1/entitlements", token: tablet.token).status == 200)

            #expect(try await server.deleteAccount(token: phone.token, password: TestServer.password).status == 204)

            for token in [phone.token, tablet.token] {
                #expect(try await server.send("GET", "/v1/entitlements", token: token).status == 401)
            }
            let signIn = try await server.send("POST", "/v1/sessions", json: Credentials(email: email, password: TestServer.password))
            #expect(signIn.status == 401)
            let row = try #require(try await server.accountRow(phone.accountId))
            #expect(row.email == nil && row.passwordHash == nil && row.appAccountToken == nil && row.deleted)
            #expect(try await server.rows(of: phone.accountId) == [
                "account_versions": 0, "sessions": 0, "transactions": 0, "renewal_infos": 0, "purchase_owners": 0,
                "events": 3,
            ])
            let events = try await server.accountEvents(phone.accountId)
            #expect(events.map(\.kind) == ["purchaseClaimed", "purchaseReleased", "accountDeleted"])
            #expect(!events.contains { $0.reason.contains(email) })
            #expect(try await server.owner(of: bought.originalTransactionId) == nil)
            #expect(try await server.send(
                "GET", "/v1/admin/accounts/\(phone.accountId)/entitlements", token: server.adminKey).status == 404)
            #expect(try await server.send(
                "GET", "/v1/admin/entitlements?appAccountToken=\(phone.appAccountToken)", token: server.adminKey).status == 404)
            let again = try await server.signUp(email: email)
            #expect(again.accountId != phone.accountId)
            #expect(try await server.orphanRows() == 0)
        }
    }

    @Test func aWrongOrMissingPasswordChangesNothing() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            _ = try await server.buy(TestPurchases.record(purchased: server.clock.now()), token: account.token)
            let before = try await server.tableCounts()

            let wrong = try await server.deleteAccount(token: account.token, password: "not the password at all")
            #expect(wrong.status == 401)
            #expect(wrong.problem?.type == ProblemType.invalidCredentials.uri)
            #expect(wrong.problem?.field == "password")
            let nul = try await server.deleteAccount(token: account.token, password: TestServer.password + "\u{0}")
            #expect(nul.status == 401)
            let missing = try await server.deleteAccount(token: account.token, password: nil)
            #expect(missing.status == 400)
            #expect(missing.problem?.field == "password")
            let empty = try await server.send("DELETE", "/v1/accounts/current", token: account.token, body: Data("{}".utf8))
            #expect(empty.status == 400)
            let wrongType = try await server.send(
                "DELETE", "/v1/accounts/current", token: account.token, body: Data(#"{"password": 12}"#.utf8))
            #expect(wrongType.status == 400)
            #expect(wrongType.problem?.field == "password")
            let notJSON = try await server.send(
                "DELETE", "/v1/accounts/current", token: account.token, body: Data("password".utf8), contentType: "text/plain")
            #expect(notJSON.status == 415)

            #expect(try await server.tableCounts() == before)
            #expect(try await server.send("GET", "/v1/entitlements", token: account.token).status == 200)
        }
    }

    @Test func repeatedWrongPasswordsAreThrottledLikeSignIns() async throws {
        try await withServer(configure: { $0.loginLimits.failuresPerEmail = 3 }) { server in
            let account = try await server.signUp()
            for _ in 0..<3 {
                #expect(try await server.deleteAccount(token: account.token, password: "a wrong password").status == 401)
            }
            let throttled = try await server.deleteAccount(token: account.token, password: TestServer.password)
            #expect(throttled.status == 429)
            #expect(throttled.header("Retry-After") != nil)
            #expect(try await server.accountRow(account.accountId)?.deleted == false)
        }
    }

    /// Released, a purchase is the next presenter's under any policy — even one bound to the
    /// deleted account's appAccountToken, and even by a background upload.
    @Test(arguments: TransferPolicy.allCases)
    func theNextAccountToPresentADeletedAccountsPurchaseGetsIt(policy: TransferPolicy) async throws {
        try await withServer(configure: { $0.transferPolicy = policy }) { server in
            let leaving = try await server.signUp()
            let next = try await server.signUp()
            let bought = TestPurchases.record(purchased: server.clock.now(), token: leaving.appAccountToken)
            _ = try await server.buy(bought, token: leaving.token)
            #expect(try await server.deleteAccount(token: leaving.token, password: TestServer.password).status == 204)

            let response = try await server.restore([server.entry(bought)], userInitiated: false, token: next.token)

            #expect(response.verdicts.map(\.verdict) == [.accepted])
            #expect(response.snapshot.entitlements.map(\.entitlementId) == ["premium"])
            #expect(try await server.owner(of: bought.originalTransactionId) == next.accountId)
            #expect(try await server.events(of: bought.originalTransactionId).map(\.kind)
                == ["purchaseClaimed", "purchaseReleased", "purchaseClaimed"])
            #expect(try await server.count("unclaimed_versions") == 0)
        }
    }

    /// The server's newest word on a released purchase follows it: a refund the deleted account
    /// received is not undone by the next account presenting the original transaction.
    @Test func aRefundTheDeletedAccountReceivedReachesTheNextHolder() async throws {
        try await withServer { server in
            let leaving = try await server.signUp()
            let next = try await server.signUp()
            let bought = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(bought, token: leaving.token)
            server.clock.advance(by: 3600)
            var refunded = bought
            (refunded.revocationDate, refunded.revocationReason, refunded.signedDate) = (server.clock.now(), .other, server.clock.now())
            #expect(try await server.notify(.refund, transaction: refunded) == "processed")
            #expect(try await server.deleteAccount(token: leaving.token, password: TestServer.password).status == 204)
            #expect(try await server.count("unclaimed_versions") == 2)

            let response = try await server.restore([server.entry(bought)], token: next.token)

            #expect(response.snapshot.entitlements.isEmpty)
            #expect(response.snapshot.transactions.contains { $0.revocationDate != nil })
        }
    }

    /// The user deletes the account, signs up again and buys in the same subscription group
    /// with the new account's token: Apple's notification hands the purchase to the new
    /// account, with the deleted account's versions of it, and keeps nothing behind.
    @Test func aPurchaseTheAppStoreHandsToANewAccountByItsTokenTakesTheKeptVersions() async throws {
        try await withServer { server in
            let leaving = try await server.signUp()
            let now = server.clock.now()
            let day: TimeInterval = 86_400
            let first = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, purchased: now.addingTimeInterval(-20 * day),
                expires: now.addingTimeInterval(10 * day), token: leaving.appAccountToken, group: TestCatalog.subscriptionGroup)
            _ = try await server.buy(first, token: leaving.token)
            #expect(try await server.deleteAccount(token: leaving.token, password: TestServer.password).status == 204)
            #expect(try await server.count("unclaimed_versions") == 1)
            let next = try await server.signUp()
            server.clock.advance(by: 60)
            let changed = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, original: first.originalTransactionId,
                purchased: server.clock.now(), expires: server.clock.now().addingTimeInterval(30 * day),
                token: next.appAccountToken, group: TestCatalog.subscriptionGroup)

            #expect(try await server.notify(.subscribed, subtype: .resubscribe, transaction: changed) == "processed")

            #expect(try await server.owner(of: first.originalTransactionId) == next.accountId)
            let snapshot = try await server.snapshot(token: next.token)
            #expect(Set(snapshot.transactions.map(\.transactionId)) == [first.transactionId, changed.transactionId])
            #expect(try await server.count("unclaimed_versions") == 0, "nothing of the deleted account is kept for an owned purchase")
        }
    }

    /// Apple signs every transaction of one App Store Server API history answer at the same
    /// moment; a deleted account's versions signed in the same millisecond are all kept, so the
    /// next holder gets the whole history.
    @Test func versionsSignedInTheSameMillisecondAreAllKeptForTheNextHolder() async throws {
        try await withServer { server in
            let leaving = try await server.signUp()
            let next = try await server.signUp()
            let now = server.clock.now()
            let day: TimeInterval = 86_400
            let first = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, purchased: now.addingTimeInterval(-40 * day), signed: now,
                expires: now.addingTimeInterval(-10 * day), group: TestCatalog.subscriptionGroup)
            let renewal = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, original: first.originalTransactionId,
                purchased: now.addingTimeInterval(-10 * day), signed: now, expires: now.addingTimeInterval(20 * day),
                group: TestCatalog.subscriptionGroup)
            _ = try await server.restore([server.entry(first), server.entry(renewal)], token: leaving.token)
            #expect(try await server.deleteAccount(token: leaving.token, password: TestServer.password).status == 204)
            #expect(try await server.count("unclaimed_versions") == 2)

            let response = try await server.restore([server.entry(first)], token: next.token)

            #expect(response.snapshot.transactions.map(\.transactionId).sorted()
                == [first.transactionId, renewal.transactionId].sorted())
            #expect(response.snapshot.entitlements.map(\.entitlementId) == ["premium"], "the renewal entitles until its expiry")
        }
    }

    @Test func deletingOneOfTwoSharersLeavesTheOtherEntitledAndOwning() async throws {
        try await withServer(configure: { $0.transferPolicy = .share }) { server in
            let first = try await server.signUp()
            let second = try await server.signUp()
            let bought = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(bought, token: first.token)
            #expect(try await server.restore([server.entry(bought)], token: second.token).verdicts.map(\.verdict) == [.accepted])

            #expect(try await server.deleteAccount(token: first.token, password: TestServer.password).status == 204)

            #expect(try await server.entitlementIds(token: second.token) == ["premium"])
            #expect(try await server.owner(of: bought.originalTransactionId) == second.accountId)
            let released = try await server.accountEvents(first.accountId).first { $0.kind == "purchaseReleased" }
            #expect(released?.to == second.accountId)
            #expect(try await server.count("unclaimed_versions") == 0)
        }
    }

    /// A restore on another device of the account, racing the deletion, finishes before it or
    /// fails cleanly after it: never a row left for the deleted account.
    @Test func aRestoreRacingTheDeletionFinishesBeforeOrFailsCleanly() async throws {
        try await withServer { server in
            for _ in 0..<3 {
                let email = "racing-\(UUID().uuidString.prefix(6))@example.com"
                let phone = try await server.signUp(email: email)
                let tablet = try await server.send(
                    "POST", "/v1/sessions", json: Credentials(email: email, password: TestServer.password))
                    .decode(SessionResponse.self)
                let purchases = (0..<6).map { _ in TestPurchases.record(purchased: server.clock.now()) }
                _ = try await server.buy(purchases[0], token: phone.token)

                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for purchase in purchases.dropFirst() {
                        group.addTask {
                            try await server.send(
                                "POST", "/v1/restore", token: tablet.token,
                                json: RestoreRequest(entries: [server.entry(purchase)], userInitiated: true)
                            ).status
                        }
                    }
                    group.addTask { try await server.deleteAccount(token: phone.token, password: TestServer.password).status }
                    return try await group.reduce(into: []) { $0.append($1) }
                }

                #expect(statuses.allSatisfy { [200, 204, 401].contains($0) }, "\(statuses)")
                #expect(statuses.filter { $0 == 204 }.count == 1)
                #expect(try await server.orphanRows() == 0)
                let left = try await server.rows(of: phone.accountId)
                #expect(left.filter { $0.key != "events" }.values.allSatisfy { $0 == 0 }, "\(left)")
                for purchase in purchases {
                    #expect(try await server.owner(of: purchase.originalTransactionId) == nil)
                }
            }
        }
    }

    @Test func anAccountWithoutAPasswordIsDeletedWithoutOne() async throws {
        try await withServer { server in
            let session = try await server.mintSession(forExternalUser: "user-42", adminKey: server.adminKey)
            #expect(try await server.deleteAccount(token: session.token, password: nil).status == 204)
            #expect(try await server.accountRow(session.accountId)?.externalUserId == nil)
            #expect(try await server.send("GET", "/v1/admin/users/user-42/entitlements", token: server.adminKey).status == 404)
        }
    }

    @Test func aDeletedAccountsSessionIsRefusedByAnotherInstanceToo() async throws {
        try await withServer { first in
            try await withSecondInstance(of: first) { second in
                let account = try await first.signUp()
                #expect(try await second.send("GET", "/v1/entitlements", token: account.token).status == 200)
                #expect(try await first.deleteAccount(token: account.token, password: TestServer.password).status == 204)
                var refused = false
                for _ in 0..<100 where !refused {
                    refused = try await second.send("GET", "/v1/entitlements", token: account.token).status == 401
                    if !refused { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(refused)
            }
        }
    }
}
