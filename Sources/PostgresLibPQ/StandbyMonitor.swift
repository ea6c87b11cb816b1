public import Logging
internal import NIOConcurrencyHelpers
public import ServiceLifecycle

/// How far a hot standby is behind its primary, as a moment in time: the standby holds every
/// transaction the primary had committed by ``freshAsOf``.
///
/// Every ``interval`` it reads the primary's WAL position (`pg_current_wal_insert_lsn()`: every
/// commit that returned before is below it, whether or not its WAL was written out yet) and keeps
/// it with the moment it read it, then reads how far the standby has replayed
/// (`pg_last_wal_replay_lsn()`): the newest primary reading at or below the standby's position
/// is the moment the standby is known to be complete up to. Unlike the age of the last replayed
/// transaction, this does not grow while the primary sits idle, and unlike the receive
/// position it does not stop growing when streaming stops. The answer is conservative by up to
/// one interval. A `Service`: it runs until graceful shutdown.
public final class StandbyMonitor: Service, Sendable {
    /// What the last measurement found.
    public enum Status: Sendable, Hashable {
        /// Not measured yet.
        case unknown
        /// In recovery, complete up to this moment (`nil`: behind every primary position read so far).
        case replaying(freshAsOf: ContinuousClock.Instant?)
        /// The standby did not answer; a lookup there failed, or the last measurement did.
        case unreachable
        /// The server answers but is not in recovery: not a standby of anything (promoted, or
        /// the wrong address), so its data says nothing about the primary's.
        case notStandby
    }

    /// How often it measures.
    public let interval: Duration
    private let primary: ConnectionPool
    private let standby: ConnectionPool
    private let logger: Logger
    private let state = NIOLockedValueBox(State())
    /// Primary positions older than this many readings are forgotten.
    private static let retainedReadings = 256

    private struct State {
        var status = Status.unknown
        /// The primary's WAL positions as read, oldest first, with when each was read.
        var readings: [(at: ContinuousClock.Instant, position: Int64)] = []
    }

    /// Creates a monitor; nothing is measured until ``run()`` or ``measure()``.
    ///
    /// - Parameters:
    ///   - primary: A pool on the primary (a transaction pooler in front of it is fine).
    ///   - standby: A pool on the standby.
    ///   - interval: How often to measure; the answer lags by up to this much.
    ///   - logger: Where a standby that stops answering, or is no standby, is reported.
    public init(primary: ConnectionPool, standby: ConnectionPool, interval: Duration, logger: Logger) {
        self.primary = primary
        self.standby = standby
        self.interval = interval
        self.logger = logger
    }

    /// What the last measurement (or a reported failure) found.
    public var status: Status { state.withLockedValue(\.status) }

    /// The moment the standby is known to be complete up to; `nil` when it is unusable (not
    /// measured, unreachable, not a standby, or behind every reading kept).
    public var freshAsOf: ContinuousClock.Instant? {
        guard case .replaying(let freshAsOf) = status else { return nil }
        return freshAsOf
    }

    /// Marks the standby unreachable until the next measurement that reaches it: a statement
    /// there failed for want of a connection.
    public func reportUnreachable() {
        let changed = state.withLockedValue { state in
            defer { state.status = .unreachable }
            return state.status != .unreachable
        }
        if changed { logger.warning("standby unreachable; reads go to the primary") }
    }

    /// Measures every ``interval`` until graceful shutdown or cancellation.
    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.measure()
                try await Task.sleep(for: self.interval)
            }
        }
    }

    /// Measures once: the primary's position first, then the standby's.
    public func measure() async {
        let readAt = ContinuousClock.now
        do {
            let position = try await primary.withConnection { connection in
                try await connection.query("SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint").first?.decode(Int64.self)
            }
            if let position {
                state.withLockedValue { state in
                    state.readings.append((readAt, position))
                    if state.readings.count > Self.retainedReadings { state.readings.removeFirst() }
                }
            }
        } catch {
            // Without a new reading the standby's freshness can only age: nothing to record.
            logger.debug("could not read the primary's WAL position", metadata: ["error": "\(error)"])
        }
        let replayed: (inRecovery: Bool, position: Int64?)
        do {
            replayed = try await standby.withConnection { connection in
                let row = try await connection.query(
                    "SELECT pg_is_in_recovery(), (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint"
                ).first
                return try row?.decode((Bool, Int64?).self) ?? (false, nil)
            }
        } catch {
            if !Task.isCancelled { reportUnreachable() }
            return
        }
        record(inRecovery: replayed.inRecovery, replayedPosition: replayed.position)
    }

    private func record(inRecovery: Bool, replayedPosition: Int64?) {
        let (previous, next) = state.withLockedValue { state -> (Status, Status) in
            let previous = state.status
            guard inRecovery, let replayedPosition else {
                state.status = .notStandby
                return (previous, state.status)
            }
            let reached = state.readings.last { $0.position <= replayedPosition }?.at
            var known: ContinuousClock.Instant?
            if case .replaying(let earlier) = previous { known = earlier }
            // Replay only moves forward: a reading dropped since cannot make it older.
            state.status = .replaying(freshAsOf: [known, reached].compactMap { $0 }.max())
            return (previous, state.status)
        }
        if next == .notStandby, previous != .notStandby {
            logger.warning("the read server is not in recovery (not a standby); reads go to the primary")
        } else if previous == .unreachable {
            logger.notice("standby reachable again")
        }
    }
}
