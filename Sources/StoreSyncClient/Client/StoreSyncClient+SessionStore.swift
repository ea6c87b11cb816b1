public import Foundation

extension StoreSyncClient {
    /// The session store a client uses when the app names none: the Keychain on Apple
    /// platforms; elsewhere memory, so the user signs in at every launch.
    ///
    /// - Returns: A store that keeps the bearer token on this device.
    public static func defaultSessionStore() -> any SessionStore {
        #if canImport(Security)
        KeychainStore()
        #else
        InMemoryStore()
        #endif
    }

    /// The retry timer's default wait: `Task.sleep`, which ends early by throwing when the
    /// timer is cancelled.
    ///
    /// - Parameter seconds: How long to wait; negative waits nothing.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    @Sendable public static func sleepOnTask(_ seconds: TimeInterval) async throws {
        // A year bounds the conversion to nanoseconds; no backoff waits that long.
        let bounded = min(max(0, seconds), 365 * 86_400)
        try await Task.sleep(nanoseconds: UInt64(bounded * 1_000_000_000))
    }

    /// Moves a session an earlier version kept in the cache to the session store, and removes
    /// it from the cache, so the bearer token leaves a cache that may be synchronised.
    ///
    /// - Returns: What went wrong, when the move failed; the cache's copy then stays unused.
    static func moveSession(from cache: any KeyValueStore, to sessionStore: any SessionStore) -> String? {
        do {
            guard let bytes = try cache.data(forKey: CacheKeys.session) else { return nil }
            if try sessionStore.data(forKey: CacheKeys.session) == nil {
                try sessionStore.set(bytes, forKey: CacheKeys.session)
            }
            try cache.set(nil, forKey: CacheKeys.session)
            // The app passed two views of the same storage: the removal took the session too.
            if try sessionStore.data(forKey: CacheKeys.session) == nil {
                try sessionStore.set(bytes, forKey: CacheKeys.session)
            }
            return nil
        } catch {
            return "the session kept in the cache by an earlier version could not be moved: \(error)"
        }
    }
}
