import AppStoreVerification
import Foundation
import Logging
import Metrics
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// Replays notifications the server missed — sent while it was down, or given up on by Apple —
/// from the App Store Server API's notification history through the notification path
/// (``NotificationService/process(_:)``), so each is processed once whichever way it arrives.
///
/// A pass per environment reads from where the last complete pass ended (an hour earlier:
/// Apple may list a notification a little after signing it), or, the first time, from the
/// start of Apple's history, and records its end in PostgreSQL. Without a start given, only the
/// notifications Apple could not deliver are asked for; with one (after restoring a database
/// backup, say), every notification from then on. Items that fail verification never reach the
/// database: the client logs and skips them.
struct NotificationRecoveryService: Sendable {
    let pool: ConnectionPool
    let apple: AppStoreAPIClients
    let notifications: NotificationService
    let logger: Logger
    let now: @Sendable () -> Date

    private let recoveries = NotificationRecoveryRepository()

    /// How far back a pass in `environment` may start. Apple keeps 180 days of notification
    /// history in production and 30 in the sandbox, and refuses an older start
    /// (`StartDateTooFarInPastError`); a day less leaves room for the request to arrive before
    /// the start falls out of it.
    static func historyWindow(for environment: AppStoreEnvironment) -> TimeInterval {
        environment == .production ? 179 * 86_400 : 29 * 86_400
    }

    /// How much of the span before the last pass's end a pass reads again.
    static let overlap: TimeInterval = 3_600

    /// Runs a pass per environment the server takes, each whether or not another failed:
    /// Apple's sandbox failing must not keep production's missed notifications from being
    /// replayed, nor the other way round.
    ///
    /// - Parameter since: Replay every notification signed from then on; `nil`: the undelivered
    ///   ones since the last pass.
    /// - Returns: What each pass read and what became of it.
    /// - Throws: ``RequestError`` for a `since` outside Apple's history; the first pass's
    ///   ``AppStoreAPIFailure`` when any failed, once every pass has run (the completed ones
    ///   have recorded where they ended, so running it again repeats only what failed).
    func recover(since: Date?) async throws -> NotificationRecoveryResponse {
        let clients = try apple.configured()
        let until = now()
        if let since {
            // A start one environment's history still holds is honoured there; the others
            // begin where theirs does, and each pass says where it began.
            let longest = clients.map { Self.historyWindow(for: $0.configuration.environment) }.max() ?? 0
            guard since >= until.addingTimeInterval(-longest) else {
                let days = Int(longest / 86_400)
                throw RequestError.invalid(
                    field: "since",
                    detail: "since must be within the last \(days) days: Apple keeps \(days + 1) days of history for this server's environments")
            }
            guard since < until else { throw RequestError.invalid(field: "since", detail: "since must be in the past") }
        }
        var passes: [NotificationRecoveryResponse.Pass] = []
        var failure: (any Error)?
        for client in clients {
            let environment = client.configuration.environment
            let earliest = until.addingTimeInterval(-Self.historyWindow(for: environment))
            let counted = { (result: String) in
                Counter(
                    label: "storesync_notification_recoveries_total",
                    dimensions: [("environment", environment.appleName), ("result", result)]
                ).increment()
            }
            do {
                passes.append(try await pass(client, since: since, until: until, earliest: earliest))
                counted("recovered")
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                counted("failed")
                logger.warning(
                    "App Store notification history not recovered",
                    metadata: ["appstore.environment": "\(environment.appleName)", "error": "\(error)"])
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return NotificationRecoveryResponse(passes: passes)
    }

    /// The pass a server runs in the background as it starts, tried again until one passes;
    /// failures are logged, never thrown.
    ///
    /// - Parameter firstRetry: The wait after the first failure; it doubles up to an hour.
    func recoverOnStart(firstRetry: Duration) async {
        guard !apple.clients.isEmpty else { return }
        var wait = firstRetry
        while true {
            do {
                _ = try await recover(since: nil)
                return
            } catch is CancellationError {
                return
            } catch {
                logger.warning(
                    "notification recovery at start failed; tried again in \(wait) (or POST /v1/admin/notifications/recover)",
                    metadata: ["error": "\(error)"])
            }
            do {
                try await Task.sleep(for: wait)
            } catch {
                return
            }
            wait = min(wait * 2, .seconds(3_600))
        }
    }

    private func pass(_ client: AppStoreServerAPIClient, since: Date?, until: Date, earliest: Date) async throws
        -> NotificationRecoveryResponse.Pass
    {
        let environment = client.configuration.environment
        var start = max(since ?? earliest, earliest)
        if since == nil, let mark = try await pool.withConnection({ try await recoveries.recoveredThrough(environment, on: $0) }) {
            start = max(earliest, mark.addingTimeInterval(-Self.overlap))
        }
        var outcomes: [String: Int] = [:]
        var skipped = 0
        if start < until {
            let query = AppStoreNotificationHistoryQuery(startDate: start, endDate: until, onlyFailures: since == nil)
            var token: String?
            repeat {
                try Task.checkCancellation()
                let page: AppStoreNotificationHistory
                do {
                    page = try await client.notificationHistoryPage(query, paginationToken: token)
                } catch {
                    throw AppStoreAPIFailure.apple(error)
                }
                skipped += page.skipped.count
                for item in page.items {
                    outcomes[try await notifications.process(item.notification).rawValue, default: 0] += 1
                }
                token = page.hasMore ? page.paginationToken : nil
            } while token != nil
        }
        try await pool.withConnection { try await recoveries.advance(environment, to: until, on: $0) }
        logger.info(
            "App Store notification history recovered",
            metadata: [
                "appstore.environment": "\(environment.appleName)", "storesync.since": "\(start)",
                "storesync.outcomes": "\(outcomes)", "appstore.skipped_items": "\(skipped)",
            ])
        return .init(environment: environment, since: start, until: until, outcomes: outcomes, skippedItems: skipped)
    }
}
