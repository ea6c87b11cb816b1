import Foundation
import Logging
import PostgresLibPQ
import ServiceLifecycle

extension ChangeFeed {
    /// Stands in for notifications where only a transaction pooler is known: every `interval`,
    /// reads the current version of every cached snapshot's account and whether every cached
    /// session still exists, evicts what changed, marks the rest fresh as of the poll's start,
    /// and reloads the catalog.
    ///
    /// The caches trust nothing for longer than ``trustWindow`` without a poll confirming it, and
    /// nothing at all while polls fail (a failure empties them), so a change made on another
    /// instance is seen here within a few polling intervals. Changes this instance makes evict
    /// its own caches at once, as they do with notifications.
    func pollForChanges(_ pool: ConnectionPool, every interval: Duration) async {
        let repository = CachePollRepository()
        try? await cancelWhenGracefulShutdown {
            var failing = false
            while !Task.isCancelled {
                let startedAt = ContinuousClock.now
                if let subscribers = self.attached, self.isSchemaReady {
                    do {
                        try await self.checkCaches(subscribers, on: pool, repository: repository, startedAt: startedAt)
                        self.setLive(true, pollStartedAt: startedAt)
                        if failing { self.logger.notice("change poll succeeded again; caches serve") }
                        failing = false
                    } catch where !Task.isCancelled {
                        self.setLive(false)
                        subscribers.snapshots.invalidateAll()
                        subscribers.sessions.invalidateAll()
                        if !failing { self.logger.warning("change poll failed; caches are off", metadata: ["error": "\(error)"]) }
                        failing = true
                    }
                }
                try await Task.sleep(until: startedAt.advanced(by: interval), clock: .continuous)
            }
        }
    }

    private func checkCaches(
        _ subscribers: Subscribers, on pool: ConnectionPool, repository: CachePollRepository,
        startedAt: ContinuousClock.Instant
    ) async throws {
        let accounts = subscribers.snapshots.cachedVersions()
        let tokens = subscribers.sessions.cachedTokenHashes()
        let (versions, sessions) = try await pool.withConnection { connection in
            (
                try await repository.versions(of: Array(accounts.keys), on: connection),
                try await repository.liveTokenHashes(among: tokens, on: connection)
            )
        }
        subscribers.snapshots.confirm(accounts, current: versions, checkedAt: startedAt)
        for token in tokens where !sessions.contains(token) { subscribers.sessions.invalidate(tokenHash: token) }
        try await subscribers.catalog.reload()
    }
}
