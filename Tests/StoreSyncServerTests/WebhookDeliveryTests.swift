import Foundation
import PostgresLibPQ
import Synchronization
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// Outbound webhooks against a local receiver (DESIGN §4): every event POSTed, signed, in order
/// per account, retried with backoff until delivered or 72 hours have passed; nothing for a
/// change that rolled back. The tests move the server's clock instead of waiting for backoff.
@Suite struct WebhookDeliveryTests {
    @Test func everyEventIsPostedOnceSignedWithTheSecret() async throws {
        try await WebhookReceiver.run { receiver in
            try await withServer(configure: { $0.sendWebhooks(to: receiver.url) }) { app in
                let account = try await app.signUp()
                let purchase = TestPurchases.record(purchased: app.clock.now())
                _ = try await app.buy(purchase, token: account.token)

                let requests = try await receiver.waitForDeliveries(count: 1)
                let request = try #require(requests.first)
                #expect(requests.count == 1)
                #expect(signatureVerifies(request))
                #expect(!signatureVerifies(request, secret: "another-secret-of-16-characters"))
                #expect(request.contentType == "application/json")
                let event = try request.event()
                let appended = try await app.eventIds()
                #expect(appended.map(\.id) == [event.id])
                #expect(event.type == "purchaseClaimed")
                #expect(event.accountId == account.accountId)
                #expect(event.data.originalTransactionId == purchase.originalTransactionId)
                try await eventually("the delivery is recorded as delivered") {
                    try await app.webhookDelivery(event.id)?.state == .delivered
                }
                let delivery = try #require(try await app.webhookDelivery(event.id))
                #expect(delivery.attempts == 1)
                #expect(delivery.lastStatus == 200)
                #expect(delivery.deliveredAt != nil)
            }
        }
    }

    /// An attempt that outlived its claim (another server claimed the delivery again) records
    /// nothing, and says so: the newer attempt's result is the one kept, and counted.
    @Test func anAttemptWhoseClaimWasTakenAgainRecordsNothing() async throws {
        try await WebhookReceiver.run { receiver in
            receiver.answer { _, _ in 500 }
            try await withServer(configure: { $0.sendWebhooks(to: receiver.url) }) { app in
                let account = try await app.signUp()
                _ = try await app.buy(TestPurchases.record(purchased: app.clock.now()), token: account.token)
                let event = try #require(try await app.eventIds().first)
                try await eventually("the first attempt is refused") { try await app.webhookDelivery(event.id)?.lastStatus == 500 }
                let stale = ClaimedDelivery(
                    event: WebhookEvent(
                        id: event.id, type: "purchaseClaimed", accountId: account.accountId, occurredAt: app.clock.now(),
                        data: WebhookEventData(originalTransactionId: nil, transactionId: nil, fromAccountId: nil, toAccountId: nil, reason: "")),
                    attempt: 1, pendingSince: app.clock.now())
                let repository = WebhookDeliveryRepository()
                let (delivered, failed) = try await app.database.withConnection { connection in
                    // Another server's claim: the delivery's second attempt.
                    try await connection.execute("UPDATE webhook_deliveries SET attempts = 2 WHERE event_id = \(event.id)")
                    let delivered = try await repository.markDelivered(stale, status: 200, at: app.clock.now(), on: connection)
                    let failed = try await repository.markAttemptFailed(
                        stale, status: 500, error: "late", retryAt: nil, on: connection)
                    return (delivered, failed)
                }
                #expect(!delivered && !failed)
                let kept = try #require(try await app.webhookDelivery(event.id))
                #expect(kept.state == .pending && kept.attempts == 2 && kept.lastError != "late")
            }
        }
    }

    @Test func withoutAWebhookNoDeliveryIsQueued() async throws {
        try await withServer { app in
            let account = try await app.signUp()
            _ = try await app.buy(TestPurchases.record(purchased: app.clock.now()), token: account.token)
            #expect(try await app.count("events") == 1)
            #expect(try await app.count("webhook_deliveries") == 0)
        }
    }

    @Test func aDeliveryAnswered500IsRetriedWithinFiveSeconds() async throws {
        try await WebhookReceiver.run { receiver in
            receiver.answer { _, index in index == 0 ? 500 : 204 }
            try await withServer(configure: { $0.sendWebhooks(to: receiver.url) }) { app in
                let account = try await app.signUp()
                _ = try await app.buy(TestPurchases.record(purchased: app.clock.now()), token: account.token)
                let id = try #require(try await app.eventIds().first?.id)
                try await eventually("the first attempt is refused") {
                    try await app.webhookDelivery(id)?.lastStatus == 500
                }
                let refused = try #require(try await app.webhookDelivery(id))
                #expect(refused.state == .pending)
                #expect(refused.attempts == 1)
                #expect(refused.lastError?.contains("500") == true)
                let lastAttempt = try #require(refused.lastAttemptAt)
                let nextAttempt = try #require(refused.nextAttemptAt)
                #expect(nextAttempt.timeIntervalSince(lastAttempt) > 0)
                #expect(nextAttempt.timeIntervalSince(lastAttempt) <= 5)

                app.clock.advance(by: 5)
                let requests = try await receiver.waitForDeliveries(count: 1)
                #expect(requests.count == 2)
                #expect(try requests.map { try $0.event().id } == [id, id])
                #expect(requests.allSatisfy { signatureVerifies($0) })
                try await eventually("the retry is recorded") { try await app.webhookDelivery(id)?.state == .delivered }
                #expect(try await app.webhookDelivery(id)?.attempts == 2)
            }
        }
    }

    @Test func anAccountsEventsArriveInOrderWhileDeliveriesAreRefusedAndRetried() async throws {
        try await WebhookReceiver.run { receiver in
            receiver.answer { _, index in index % 3 == 0 ? 503 : 200 }
            try await withServer(configure: { $0.sendWebhooks(to: receiver.url) }) { app in
                let accounts = [try await app.signUp(), try await app.signUp()]
                for _ in 0..<4 {
                    for account in accounts {
                        _ = try await app.buy(TestPurchases.record(purchased: app.clock.now()), token: account.token)
                    }
                }
                let appended = try await app.eventIds()
                #expect(appended.count == 8)
                let clock = app.clock
                // Retries come due as the clock moves, but never while an attempt is under way: a
                // claim is held for three request timeouts of this clock (180 s), and ticking past
                // that while a slow request is still out (a loaded machine) would let the delivery
                // be claimed and sent again. One tick (5 s) cannot end a claim made meanwhile.
                let ticking = Task {
                    while !Task.isCancelled {
                        if (try? await app.webhookAttemptsUnderWay()) == 0 { clock.advance(by: 5) }
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                }
                defer { ticking.cancel() }
                let requests = try await receiver.waitForDeliveries(count: appended.count)
                ticking.cancel()

                for account in accounts {
                    let expected = appended.filter { $0.account == account.accountId }.map(\.id)
                    let attempted = try requests.map { try $0.event() }.filter { $0.accountId == account.accountId }.map(\.id)
                    let delivered = try requests.deliveredEvents().filter { $0.accountId == account.accountId }.map(\.id)
                    #expect(delivered == expected, "each event once, in the order appended")
                    #expect(attempted == attempted.sorted(), "no event is attempted before the previous one was delivered")
                }
                #expect(requests.contains { !(200..<300).contains($0.answered) }, "some attempts were refused")
            }
        }
    }

    @Test func aReceiverDownForAnHourGetsEverythingAfterwardsInOrder() async throws {
        let port = try FreePort.find()
        let url = URL(string: "http://127.0.0.1:\(port)/hooks/storesync")!
        try await withServer(configure: { $0.sendWebhooks(to: url) }) { app in
            let accounts = [try await app.signUp(), try await app.signUp()]
            for _ in 0..<3 {
                for account in accounts {
                    _ = try await app.buy(TestPurchases.record(purchased: app.clock.now()), token: account.token)
                }
            }
            let appended = try await app.eventIds()
            let heads = accounts.compactMap { account in appended.first { $0.account == account.accountId }?.id }
            // An hour with nothing listening: every attempt fails without an answer.
            var attempts = heads.map { _ in 0 }
            for minute in stride(from: 0, through: 60, by: 12) {
                if minute > 0 { app.clock.advance(by: 12 * 60) }
                try await eventually("each account's first delivery fails again (minute \(minute))") {
                    let now = try await heads.asyncMap { try await app.webhookDelivery($0) }
                    return zip(now, attempts).allSatisfy { delivery, before in
                        (delivery?.attempts ?? 0) > before && delivery?.lastError != nil
                    }
                }
                attempts = try await heads.asyncMap { try await app.webhookDelivery($0)?.attempts ?? 0 }
            }
            for id in heads {
                let delivery = try #require(try await app.webhookDelivery(id))
                #expect(delivery.state == .pending)
                #expect(delivery.lastStatus == nil, "nothing answered")
            }
            #expect(try await app.webhookDeliveries(.delivered).isEmpty)

            try await WebhookReceiver.run(port: port) { receiver in
                app.clock.advance(by: 3_600)
                let requests = try await receiver.waitForDeliveries(count: appended.count)
                for account in accounts {
                    let expected = appended.filter { $0.account == account.accountId }.map(\.id)
                    let delivered = try requests.deliveredEvents().filter { $0.accountId == account.accountId }.map(\.id)
                    #expect(delivered == expected)
                }
                #expect(requests.count == appended.count, "each event once: nothing was taken while the receiver was down")
                try await eventually("the queue is empty") { try await app.webhookDeliveries(.pending).isEmpty }
            }
        }
    }

    @Test func aDeliveryFailsAfter72HoursTheAccountMovesOnAndAnOperatorRetriesIt() async throws {
        try await WebhookReceiver.run { receiver in
            // Refuses the first event it sees for as long as the test says; takes every other.
            let refusal = Shared<(first: Int64?, refusing: Bool)>((nil, true))
            receiver.answer { body, _ in
                let id = (try? StoreSyncJSON.makeDecoder().decode(WebhookEvent.self, from: body))?.id
                return refusal.withLock { state in
                    if state.first == nil { state.first = id }
                    return state.refusing && id == state.first ? 500 : 200
                }
            }
            try await withServer(configure: { $0.sendWebhooks(to: receiver.url) }) { app in
                let account = try await app.signUp()
                _ = try await app.buy(TestPurchases.record(purchased: app.clock.now()), token: account.token)
                let first = try #require(try await app.eventIds().first?.id)
                try await eventually("the first attempt is refused") { try await app.webhookDelivery(first)?.lastStatus == 500 }
                _ = try await app.buy(TestPurchases.record(purchased: app.clock.now()), token: account.token)
                let second = try #require(try await app.eventIds().last?.id)
                #expect(second != first)
                #expect(try await app.webhookDelivery(second)?.attempts == 0, "waits behind the account's first event")

                app.clock.advance(by: 73 * 3_600)
                try await eventually("the first delivery is given up") { try await app.webhookDelivery(first)?.state == .failed }
                let requests = try await receiver.waitForDeliveries(count: 1)
                #expect(try requests.map { try $0.event().id } == [first, first, second], "the second after the first gave up")

                refusal.withLock { $0.refusing = false }
                let retried = try await app.send("POST", "/v1/admin/webhooks/deliveries/\(first)/retry", token: app.adminKey)
                #expect(retried.status == 202)
                let pending = try retried.decode(WebhookDelivery.self)
                #expect(pending.state == .pending)
                #expect(pending.attempts == 0)
                let afterRetry = try await receiver.waitForDeliveries(count: 2)
                #expect(try afterRetry.deliveredEvents().map(\.id) == [second, first])
                try await eventually("nothing has failed any more") { try await app.webhookDeliveries(.failed).isEmpty }
            }
        }
    }

    @Test func anAccountsDeletionIsDeliveredAfterItsEarlierEventsWithNoPurchase() async throws {
        try await WebhookReceiver.run { receiver in
            try await withServer(configure: { $0.sendWebhooks(to: receiver.url) }) { app in
                let account = try await app.signUp()
                let purchase = TestPurchases.record(purchased: app.clock.now())
                _ = try await app.buy(purchase, token: account.token)
                let deleted = try await app.send(
                    "DELETE", "/v1/accounts/current", token: account.token,
                    json: AccountDeletionRequest(password: TestServer.password))
                #expect(deleted.status == 204)

                let appended = try await app.eventIds()
                let requests = try await receiver.waitForDeliveries(count: appended.count)
                let events = try requests.deliveredEvents()
                #expect(events.map(\.id) == appended.map(\.id))
                #expect(events.first?.type == "purchaseClaimed")
                let deletion = try #require(events.last)
                #expect(deletion.type == "accountDeleted")
                #expect(deletion.accountId == account.accountId)
                #expect(deletion.data.originalTransactionId == nil)
            }
        }
    }

    @Test func aDryRunRestoreQueuesAndSendsNothing() async throws {
        try await WebhookReceiver.run { receiver in
            try await withServer(configure: { $0.sendWebhooks(to: receiver.url) }) { app in
                let owner = try await app.signUp()
                let other = try await app.signUp()
                let purchase = TestPurchases.record(purchased: app.clock.now())
                _ = try await app.buy(purchase, token: owner.token)
                _ = try await receiver.waitForDeliveries(count: 1)
                let before = try await app.tableCounts()

                let dryRun = try await app.restore([app.entry(purchase)], dryRun: true, token: other.token)
                #expect(dryRun.verdicts.map(\.verdict) == [.transferred])
                #expect(try await app.tableCounts() == before, "a dry run keeps no event and queues no delivery")

                _ = try await app.restore([app.entry(purchase)], token: other.token)
                let appended = try await app.eventIds()
                #expect(appended.count == 3, "claimed, then the transfer on both accounts")
                let requests = try await receiver.waitForDeliveries(count: appended.count)
                #expect(try requests.map { try $0.event().id }.sorted() == appended.map(\.id).sorted())
                #expect(requests.count == appended.count)
            }
        }
    }
}

/// A value a receiver's answer reads while the test changes it.
final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) { storage = Mutex(value) }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        storage.withLock { body(&$0) }
    }
}

extension Array {
    /// Maps each element with an async transform, one after the other.
    func asyncMap<Mapped>(_ transform: (Element) async throws -> Mapped) async rethrows -> [Mapped] {
        var mapped: [Mapped] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
