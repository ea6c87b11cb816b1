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

/// Linux's scheduling classes as `/proc/<pid>/task/<tid>/stat` numbers them (its 41st field).
enum SchedulingClass {
    static let normal = 0
    static let batch = 3

    /// The class of each thread of process `pid`, by thread id.
    static func ofThreads(of pid: Int32) -> [Int32: Int] {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var classes: [Int32: Int] = [:]
        for thread in threads.compactMap({ Int32($0) }) {
            if let policy = policy(statPath: "/proc/\(pid)/task/\(thread)/stat") { classes[thread] = policy }
        }
        return classes
    }

    /// The class of process `pid`'s main thread.
    static func ofProcess(_ pid: Int32) -> Int? { policy(statPath: "/proc/\(pid)/stat") }

    /// The processes whose parent is `pid`.
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { field(4, statPath: "/proc/\($0)/stat") == Int(pid) }
    }

    private static func policy(statPath: String) -> Int? { field(41, statPath: statPath) }

    /// Field `number` (from 1) of a stat file; the command name (field 2) may hold spaces and
    /// parentheses, so fields are counted after its closing one.
    private static func field(_ number: Int, statPath: String) -> Int? {
        guard let text = try? String(contentsOfFile: statPath, encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > number - 3 else { return nil }
        return Int(fields[number - 3])
    }
}
#endif
