import Foundation
import Metrics
import PostgresLibPQ

/// Entitlement lookups answered by a hot standby (`DATABASE_READ_URL`), never older than what
/// the asking device has already seen; whenever that cannot be promised, the primary answers.
///
/// The standby answers only while its ``PostgresLibPQ/StandbyMonitor`` says it is complete up
/// to a moment less than ``maxLag`` ago, and only for an account it holds at the version the
/// request's `If-None-Match` names or a later one: a device that has just restored (and holds
/// the new version's ETag) is answered by the primary until the standby has replayed the
/// restore. A standby that fails a statement is left alone until the monitor reaches it again.
struct StandbyReads: Sendable {
    /// Why a lookup the standby could have answered went to the primary
    /// (`storesync_standby_fallbacks_total{reason}`).
    enum Fallback: String, CaseIterable {
        /// The standby lacks the account, or the version the device has seen.
        case behind
        /// The standby is further behind than ``StandbyReads/maxLag``.
        case lagging
        /// The standby is unreachable, not a standby, or not measured yet.
        case unavailable
        /// A statement on the standby failed.
        case failed
    }

    /// The standby's answer, and the moment its data is complete up to.
    struct Answer {
        let loaded: LookupService.LoadedSnapshot
        let freshAsOf: ContinuousClock.Instant
    }

    let monitor: StandbyMonitor
    /// How far behind the primary the standby may be and still answer.
    let maxLag: Duration
    let loader: CoalescingLoader<LookupService.SnapshotRequest, Result<LookupService.LoadedSnapshot, any Error>>
    private let fallbacks: [Fallback: Counter]

    init(
        monitor: StandbyMonitor, maxLag: Duration,
        loader: CoalescingLoader<LookupService.SnapshotRequest, Result<LookupService.LoadedSnapshot, any Error>>
    ) {
        self.monitor = monitor
        self.maxLag = maxLag
        self.loader = loader
        fallbacks = Dictionary(uniqueKeysWithValues: Fallback.allCases.map { reason in
            (reason, Counter(label: "storesync_standby_fallbacks_total", dimensions: [("reason", reason.rawValue)]))
        })
    }

    /// The standby's answer to `request`, or `nil` (counted by reason) when the primary must answer.
    func snapshot(for request: LookupService.SnapshotRequest) async -> Answer? {
        guard let freshAsOf = monitor.freshAsOf else { return fallBack(.unavailable) }
        guard ContinuousClock.now - freshAsOf <= maxLag else { return fallBack(.lagging) }
        do {
            guard let loaded = try await loader.value(for: request)?.get() else { return fallBack(.behind) }
            return Answer(loaded: loaded, freshAsOf: freshAsOf)
        } catch {
            if let error = error as? PostgresError, error.isConnectionError || error.code == .poolTimeout {
                monitor.reportUnreachable()
            }
            return fallBack(.failed)
        }
    }

    private func fallBack(_ reason: Fallback) -> Answer? {
        fallbacks[reason]?.increment()
        return nil
    }
}
