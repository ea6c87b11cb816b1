import Foundation
import PostgresLibPQ
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// The session cache never brings a token back: a database read of a session that a sign-out
/// overtook (issue 23, finding 12) is not cached, whether the sign-out was seen here or
/// announced by the change feed.
@Suite struct SessionCacheTests {
    private static let hash = Data((0..<32).map { UInt8($0) })
    private static let device = DeviceIdentity(accountId: UUID(), deviceId: UUID())

    @Test func aReadNoEvictionOvertookIsCached() async throws {
        try await SnapshotEvictionTests.withLiveCaches { _, sessions, _ in
            let now = Date()
            let (missed, generation) = sessions.device(tokenHash: Self.hash, now: now)
            #expect(missed == nil)
            sessions.store(Self.device, tokenHash: Self.hash, readAt: generation, now: now)
            #expect(sessions.device(tokenHash: Self.hash, now: now).device == Self.device)
        }
    }

    @Test func aReadThatASignOutOvertookIsNotCached() async throws {
        try await SnapshotEvictionTests.withLiveCaches { _, sessions, _ in
            let now = Date()
            let generation = sessions.device(tokenHash: Self.hash, now: now).generation
            // The sign-out commits and is seen while the read is still on its way.
            sessions.invalidate(tokenHash: Self.hash)
            sessions.store(Self.device, tokenHash: Self.hash, readAt: generation, now: now)
            #expect(sessions.device(tokenHash: Self.hash, now: now).device == nil)
        }
    }

    /// The sign-out happens on another instance: only the change feed's notice of the deleted
    /// row tells this one, and the read that started before it must not be stored after it.
    @Test func aReadOvertakenByASignOutAnnouncedByTheFeedIsNotCached() async throws {
        try await SnapshotEvictionTests.withLiveCaches { _, sessions, pool in
            let account = AccountRecord(
                accountId: UUID(), email: "feed@example.com", passwordHash: "x", appAccountToken: UUID())
            let token = BearerToken()
            let now = Date()
            try await pool.withTransaction { connection in
                try await AccountRepository().insert(account, normalizedEmail: "feed@example.com", on: connection)
                try await SessionRepository().upsert(
                    accountId: account.accountId, deviceId: UUID(), tokenHash: token.hash, deviceName: nil, now: now,
                    on: connection)
            }
            let generation = sessions.device(tokenHash: token.hash, now: now).generation
            let read = try await pool.withConnection {
                try await SessionRepository().device(
                    tokenHash: token.hash, now: now, idleSince: now.addingTimeInterval(-3600), on: $0)
            }
            let device = try #require(read)
            // Another request of the device cached it meanwhile; the sign-out's notice evicts it.
            sessions.store(device, tokenHash: token.hash, readAt: generation, now: now)
            #expect(sessions.device(tokenHash: token.hash, now: now).device == device)
            try await pool.withConnection { connection in
                try await connection.execute("DELETE FROM sessions WHERE token_hash = \(token.hash)")
            }
            var evicted = false
            for _ in 0..<200 where !evicted {
                try await Task.sleep(for: .milliseconds(20))
                evicted = sessions.device(tokenHash: token.hash, now: now).device == nil
            }
            #expect(evicted, "the change feed announced the sign-out")

            sessions.store(device, tokenHash: token.hash, readAt: generation, now: now)
            #expect(sessions.device(tokenHash: token.hash, now: now).device == nil)
        }
    }
}
