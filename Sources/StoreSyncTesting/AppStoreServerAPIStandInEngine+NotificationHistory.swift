import AppStoreVerification
import Foundation
import Hummingbird
import StoreSyncCore

extension AppStoreServerAPIStandInEngine {
    /// How far back Apple keeps notification history: 180 days in production, 30 in the sandbox.
    var notificationHistoryDays: TimeInterval { environment == .production ? 180 : 30 }

    /// Get Notification History: the notifications signed in `[startDate, endDate)`, oldest
    /// first, filtered as asked, a page at a time.
    func notificationHistory(_ body: Data, paginationToken: String?) async -> Response {
        guard let query = try? JSONDecoder().decode(HistoryRequest.self, from: body) else {
            return Self.error(400, .generalBadRequest, "Invalid request.")
        }
        guard let startMs = query.startDate else { return Self.error(400, .init(rawValue: 4_000_015), "Invalid start date.") }
        guard let endMs = query.endDate else { return Self.error(400, .init(rawValue: 4_000_016), "Invalid end date.") }
        let start = Date(millisecondsSince1970: startMs)
        let end = Date(millisecondsSince1970: endMs)
        guard start < end else { return Self.error(400, .startDateAfterEndDate, "Start date after end date.") }
        guard start >= now().addingTimeInterval(-notificationHistoryDays * 86_400) else {
            return Self.error(400, .startDateTooFarInPast, "Start date too far in the past.")
        }
        var offset = 0
        if let paginationToken {
            guard paginationToken.hasPrefix("page-"), let value = Int(paginationToken.dropFirst("page-".count)),
                value >= 0
            else { return Self.error(400, .invalidPaginationToken, "Invalid pagination token.") }
            offset = value
        }
        var customerIds: Set<String>?
        if let transactionId = query.transactionId {
            let entries = await state.customer(holding: transactionId)?.entries ?? []
            customerIds = Set(entries.flatMap { [$0.record.transactionId, $0.record.originalTransactionId] })
        }
        let matching = await state.notifications
            .filter { notification in
                (start..<end).contains(notification.signedDate)
                    && (query.onlyFailures != true || notification.undelivered)
                    && customerIds.map { ids in notification.transaction.map { ids.contains($0.transactionId) } ?? false }
                        ?? true
            }
            .sorted { $0.signedDate < $1.signedDate }
        let page = matching.dropFirst(offset).prefix(pageSize)
        let hasMore = offset + page.count < matching.count
        let tamperings = await state.tamperings
        return Self.json(
            HistoryBody(
                notificationHistory: page.map { notification in
                    Entry(
                        signedPayload: signed(notification, tamperings: tamperings),
                        sendAttempts: notification.sendAttempts.map(Attempt.init))
                },
                hasMore: hasMore, paginationToken: hasMore ? "page-\(offset + page.count)" : nil))
    }

    /// A stored notification, signed (or spoiled) as it goes out.
    func signed(
        _ notification: AppStoreServerAPIStandInNotification,
        tamperings: [AppStoreServerAPIStandInItem: AppStoreServerAPIStandInTampering]
    ) -> String {
        signed(.notification(notification.uuid.uuidString), tamperings: tamperings) {
            $0.signNotification(
                type: notification.type, subtype: notification.subtype, uuid: notification.uuid,
                signedDate: notification.signedDate, environment: notification.environment,
                transaction: notification.transaction, renewalInfo: notification.renewalInfo)
        }
    }

    /// Apple's `NotificationHistoryRequest`.
    private struct HistoryRequest: Decodable {
        var startDate: Int64?
        var endDate: Int64?
        var transactionId: String?
        var onlyFailures: Bool?
    }

    /// Apple's `NotificationHistoryResponse`.
    private struct HistoryBody: Encodable {
        var notificationHistory: [Entry]
        var hasMore: Bool
        var paginationToken: String?
    }

    private struct Entry: Encodable {
        var signedPayload: String
        var sendAttempts: [Attempt]
    }

    /// Apple's `SendAttemptItem`, dates in milliseconds.
    struct Attempt: Encodable {
        var attemptDate: Date
        var sendAttemptResult: String

        init(_ attempt: AppStoreSendAttempt) {
            attemptDate = attempt.attemptDate
            sendAttemptResult = attempt.sendAttemptResult.rawValue
        }
    }
}
