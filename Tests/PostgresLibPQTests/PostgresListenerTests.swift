import Foundation
import Logging
import PostgresLibPQ
import PostgresLibPQTesting
import ServiceLifecycle
import Testing

@Suite struct PostgresListenerTests {
    /// Collects events from a running listener.
    private static func next(
        _ iterator: inout AsyncStream<PostgresListenerEvent>.AsyncIterator, where matches: (PostgresListenerEvent) -> Bool
    ) async -> PostgresListenerEvent? {
        while let event = await iterator.next() {
            if matches(event) { return event }
        }
        return nil
    }

    @Test func notificationsArriveAndAKilledConnectionComesBack() async throws {
        try await TestCluster.withPool { pool in
            let listener = try PostgresListener(
                configuration: pool.configuration, channels: ["storesync_test"], logger: Logger(label: "test"))
            let running = Task { try await listener.run() }
            var events = listener.events.makeAsyncIterator()
            #expect(await Self.next(&events, where: { $0 == .listening }) == .listening)

            try await pool.withConnection { try await $0.execute("SELECT pg_notify('storesync_test', 'hello')") }
            #expect(await Self.next(&events, where: { if case .notification = $0 { true } else { false } })
                == .notification(channel: "storesync_test", payload: "hello"))

            try await pool.withConnection { connection in
                try await connection.execute(
                    """
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE pid <> pg_backend_pid() AND datname = current_database() AND query LIKE 'LISTEN%'
                    """)
            }
            #expect(await Self.next(&events, where: { $0 == .disconnected }) == .disconnected)
            #expect(await Self.next(&events, where: { $0 == .listening }) == .listening)
            try await pool.withConnection { try await $0.execute("SELECT pg_notify('storesync_test', 'again')") }
            #expect(await Self.next(&events, where: { if case .notification = $0 { true } else { false } })
                == .notification(channel: "storesync_test", payload: "again"))

            running.cancel()
            _ = try? await running.value
        }
    }

    /// A notification that arrived is reported even when the connection ends right behind it,
    /// within the same read: it is reported before the loss, never dropped with the connection.
    @Test(arguments: [SessionEndingProxy.Ending.drop, .adminShutdown])
    func aNotificationFollowedByTheConnectionsEndIsStillReported(ending: SessionEndingProxy.Ending) async throws {
        try await TestCluster.withPool { pool in
            let proxy = try SessionEndingProxy(upstream: pool.configuration)
            defer { proxy.stop() }
            let listener = try PostgresListener(
                configuration: proxy.configuration, channels: ["storesync_test"], logger: Logger(label: "test"))
            let running = Task { try await listener.run() }
            var events = listener.events.makeAsyncIterator()
            #expect(await Self.next(&events, where: { $0 == .listening }) == .listening)

            for round in 1...5 {
                proxy.endSession(after: { type, _ in type == UInt8(ascii: "A") }, with: ending)
                try await pool.withConnection { try await $0.execute("SELECT pg_notify('storesync_test', \("round \(round)"))") }
                let reported = await Self.next(&events, where: { $0 != .listening })
                #expect(reported == .notification(channel: "storesync_test", payload: "round \(round)"), "round \(round)")
                #expect(await Self.next(&events, where: { $0 == .disconnected }) == .disconnected)
                #expect(await Self.next(&events, where: { $0 == .listening }) == .listening)
            }

            running.cancel()
            _ = try? await running.value
        }
    }

    @Test func channelNamesMustBePlainIdentifiers() {
        let configuration = PostgresConfiguration(unixSocketDirectory: "/tmp", user: "u", database: "d")
        #expect(throws: PostgresError.self) {
            try PostgresListener(configuration: configuration, channels: ["x; DROP TABLE y"], logger: Logger(label: "t"))
        }
    }
}
