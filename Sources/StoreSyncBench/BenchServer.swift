import Foundation
import Logging
import PostgresLibPQ
import StoreSyncTesting

/// The release server under measurement, on its embedded PostgreSQL in the workspace.
struct BenchServer {
    let process: ServerProcess
    let workspace: BenchWorkspace

    /// The embedded cluster's database, as the server reaches it (unix socket).
    var database: PostgresConfiguration {
        var configuration = EmbeddedPostgres(
            directory: workspace.dataDirectory.appendingPathComponent("postgres", isDirectory: true),
            logger: .init(label: "storesync.bench")
        ).configuration
        configuration.database = "storesync"
        return configuration
    }

    var baseURL: URL { process.baseURL }
    var processIdentifier: Int32 { process.processIdentifier }

    /// Starts `storesync serve` with the snapshot cache at its default size, or off (a cache of
    /// no entries), so every lookup reaches PostgreSQL.
    static func start(plan: BenchPlan, workspace: BenchWorkspace, snapshotCache: Bool, label: String) async throws
        -> BenchServer
    {
        var settings = ["STORESYNC_DATA_DIR": workspace.dataDirectory.path]
        if !snapshotCache { settings["STORESYNC_SNAPSHOT_CACHE_ENTRIES"] = "0" }
        return try await launch(plan: plan, workspace: workspace, label: label, settings: settings)
    }

    /// Starts another `storesync serve` on this one's database, through its embedded
    /// cluster's socket: a second instance behind the same load balancer, with caches of its
    /// own. Stop it before this one, which owns the cluster.
    func secondInstance(plan: BenchPlan, label: String, settings: [String: String] = [:]) async throws -> BenchServer {
        let settings = settings.merging(["DATABASE_URL": try Self.url(of: database)]) { given, _ in given }
        return try await Self.launch(plan: plan, workspace: workspace, label: label, settings: settings)
    }

    /// A `postgres://` URL for a database of an embedded cluster, reached through its socket.
    static func url(of database: PostgresConfiguration) throws -> String {
        guard let socketDirectory = database.host else { throw BenchError("the embedded cluster has no socket directory") }
        return "postgres://\(database.user ?? "postgres")@localhost:\(database.port)/\(database.database)?host=\(socketDirectory)"
    }

    private static func launch(plan: BenchPlan, workspace: BenchWorkspace, label: String, settings: [String: String])
        async throws -> BenchServer
    {
        let process = try await ServerProcess.start(
            executable: plan.serverBinary, port: try FreePort.find(),
            settings: workspace.appStore.settings.merging([
                "STORESYNC_ADMIN_API_KEY": workspace.adminKey,
                // A 10,000-entry restore carries ~40 MB of JWS; the default limit is 16 MiB.
                "STORESYNC_MAX_BODY_BYTES": String(128 * 1024 * 1024),
                "LOG_LEVEL": "warning",
                "STORESYNC_TRUSTED_PROXIES": BenchClients.trustedProxies,
            ].merging(settings) { _, given in given }) { _, bench in bench },
            logFile: workspace.file("server-\(label).log"))
        return BenchServer(process: process, workspace: workspace)
    }

    /// Resident memory of the server process, in bytes.
    func residentBytes() async -> Int? {
        await ResidentMemory.bytes(of: process.processIdentifier)
    }

    func stop() async { await process.stop() }
}

/// Reads a process's resident set size.
enum ResidentMemory {
    static func bytes(of pid: Int32) async -> Int? {
        if let bytes = status("VmRSS", of: pid) { return bytes }
        // Elsewhere (macOS): ps reports kilobytes.
        guard let output = try? await Shell.output("ps", ["-o", "rss=", "-p", String(pid)]),
            let kilobytes = Int(output.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return kilobytes * 1024
    }

    /// Linux: a `/proc/<pid>/status` figure, e.g. "VmRSS:   123456 kB", in bytes.
    static func status(_ field: String, of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    /// Linux: starts the kernel's record of the process's peak resident size (`VmHWM`) afresh
    /// from its current size; answers whether it could.
    static func resetPeak(of pid: Int32) -> Bool {
        guard let file = FileHandle(forWritingAtPath: "/proc/\(pid)/clear_refs") else { return false }
        defer { try? file.close() }
        return (try? file.write(contentsOf: Data("5".utf8))) != nil
    }
}

/// Keeps a process's peak resident memory while a load runs: on Linux the kernel's own
/// high-water mark, reset when the load starts, so a peak between two readings is not missed;
/// elsewhere, the highest of readings five times a second.
final class ResidentMemorySampler: @unchecked Sendable {  // `peak` is written by the sampling task only, read after it ends.
    private var peak = 0
    private var task: Task<Void, Never>?
    private var pid: Int32 = 0
    private var exact = false

    func start(pid: Int32) {
        self.pid = pid
        exact = ResidentMemory.resetPeak(of: pid)
        task = Task { [self] in
            while !Task.isCancelled {
                if let bytes = await ResidentMemory.bytes(of: pid) { peak = max(peak, bytes) }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    /// Stops sampling and answers the peak.
    func stop() async -> Int {
        task?.cancel()
        await task?.value
        guard exact, let highWater = ResidentMemory.status("VmHWM", of: pid) else { return peak }
        return max(peak, highWater)
    }
}
