#if os(Linux)
import Foundation
import StoreSyncAPI
import StoreSyncTesting
import Testing

/// `STORESYNC_THREAD_SCHEDULING`: every thread of `storesync serve` runs in the class it names,
/// read from the kernel's own account of each thread.
@Suite struct ThreadSchedulingTests {
    @Test("serve's threads run in the batch class by default, and in the kernel's default one when told", arguments: [
        (nil, SchedulingClass.batch), ("normal", SchedulingClass.normal), ("BATCH", SchedulingClass.batch),
    ])
    func everyThreadRunsInTheNamedClass(setting: String?, expected: Int) async throws {
        let fixture = try await KillFixture.make()
        var settings = [String: String]()
        settings["STORESYNC_THREAD_SCHEDULING"] = setting
        let server = try await fixture.startServer(log: "serve.log", settings: settings)
        defer { server.kill() }
        // Threads started after start-up (connection threads, the pool's growth) as well.
        let account = try await server.signUp()
        _ = try await server.send("GET", "/v1/entitlements", token: account.token)

        let classes = SchedulingClass.ofThreads(of: server.processIdentifier)
        #expect(classes.count > 4, "the server runs event loops, the cooperative pool and connection threads")
        #expect(classes.values.allSatisfy { $0 == expected }, "threads by class: \(classes)")
        await server.stop()
        await fixture.remove()
    }
}
#endif
