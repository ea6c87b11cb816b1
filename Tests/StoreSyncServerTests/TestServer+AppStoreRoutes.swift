import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// The App Store Server API admin routes as the tests call them.
extension TestServer {
    func refresh(_ originalTransactionId: String, expect status: Int = 200) async throws -> TestResponse {
        let response = try await send(
            "POST", "/v1/admin/purchases/\(originalTransactionId)/refresh", token: adminKey, body: Data(), contentType: nil)
        #expect(response.status == status, "\(response.problem?.detail ?? "")")
        return response
    }

    func recoverNotifications(since: Date? = nil) async throws -> NotificationRecoveryResponse {
        let response = try await send(
            "POST", "/v1/admin/notifications/recover", token: adminKey, json: NotificationRecoveryRequest(since: since))
        #expect(response.status == 200, "\(response.problem?.detail ?? "")")
        return try response.decode(NotificationRecoveryResponse.self)
    }

    /// Waits for the notification recovery the server runs in the background as it starts, so
    /// what a test adds afterwards is recovered by the test's own calls.
    func startupRecoveryFinished() async throws {
        let finished = try await eventually { try await count("notification_recoveries") > 0 }
        try #require(finished, "the recovery at start did not finish")
    }
}

extension NotificationRecoveryResponse {
    /// Notifications with this outcome, over every pass.
    func count(_ outcome: String) -> Int {
        passes.reduce(0) { $0 + ($1.outcomes[outcome] ?? 0) }
    }

    var skippedItems: Int { passes.reduce(0) { $0 + $1.skippedItems } }
}

extension TestPurchases {
    /// A monthly subscription bought `daysAgo` days before `now`, expiring 30 days after purchase.
    static func subscription(at now: Date, daysAgo: Double, token: UUID? = nil) -> TransactionRecord {
        let purchased = now.addingTimeInterval(-daysAgo * 86_400)
        return record(
            TestCatalog.monthly, type: .autoRenewable, purchased: purchased, expires: purchased.addingTimeInterval(30 * 86_400),
            token: token, group: TestCatalog.subscriptionGroup)
    }

    /// Apple's version of `record` refunded at `date` (and signed then).
    static func refund(of record: TransactionRecord, at date: Date) -> TransactionRecord {
        var refunded = record
        refunded.revocationDate = date
        refunded.revocationReason = .other
        refunded.signedDate = date
        return refunded
    }

    /// The renewal of `subscription` for the next 30 days, signed the day before it expires.
    static func renewal(of subscription: TransactionRecord) -> TransactionRecord {
        let previousEnd = subscription.expiresDate ?? subscription.purchaseDate
        let renewed = previousEnd.addingTimeInterval(-86_400)
        return record(
            subscription.productId, type: .autoRenewable, original: subscription.originalTransactionId,
            purchased: renewed, expires: previousEnd.addingTimeInterval(30 * 86_400), group: subscription.subscriptionGroupId)
    }
}
