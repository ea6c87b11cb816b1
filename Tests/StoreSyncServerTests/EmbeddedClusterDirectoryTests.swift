import Foundation
import Logging
@testable import StoreSyncServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where the embedded cluster lives when `DATABASE_URL` is unset, and what a root process
/// does about a working directory PostgreSQL (then run as `postgres`) cannot enter.
@Suite struct EmbeddedClusterDirectoryTests {
    private let logger = Logger(label: "storesync.test.cluster-directory")

    /// A fresh directory under the temporary directory with these permissions.
    private func directory(mode: Int16) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("storesync-dir-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: mode])
        return url
    }

    @Test func aChosenDirectoryIsAlwaysTheOneUsed() throws {
        let home = try directory(mode: 0o700)
        defer { try? FileManager.default.removeItem(at: home) }
        let chosen = home.appendingPathComponent("data").path
        let cluster = ServerDatabase.embeddedClusterDirectory(configured: chosen, logger: logger, workingDirectory: home)
        #expect(cluster.path == chosen + "/postgres", "the operator's choice, reachable or not (start-up says so)")
        let relative = ServerDatabase.embeddedClusterDirectory(configured: "relative", logger: logger, workingDirectory: home)
        #expect(relative.path == home.appendingPathComponent("relative/postgres").path)
    }

    @Test func aWorkingDirectoryPostgreSQLCanEnterKeepsTheDataBesideTheCheckout() throws {
        let open = try directory(mode: 0o755)
        defer { try? FileManager.default.removeItem(at: open) }
        let cluster = ServerDatabase.embeddedClusterDirectory(configured: nil, logger: logger, workingDirectory: open)
        #expect(cluster.path == open.appendingPathComponent(".storesync/postgres").path)
    }

    /// Only root hands PostgreSQL to another account; CI runs as root.
    @Test(.enabled(if: geteuid() == 0, "only a root process runs PostgreSQL as another account"))
    func asRootACheckoutInAClosedHomeKeepsItsDataWherePostgreSQLCanReachIt() throws {
        let home = try directory(mode: 0o700)
        let fallbackRoot = try directory(mode: 0o755)
        defer {
            try? FileManager.default.removeItem(at: home)
            try? FileManager.default.removeItem(at: fallbackRoot)
        }
        let checkout = home.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
        let other = home.appendingPathComponent("other/app")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)

        let cluster = ServerDatabase.embeddedClusterDirectory(
            configured: nil, logger: logger, workingDirectory: checkout, fallbackRoot: fallbackRoot)
        let otherCluster = ServerDatabase.embeddedClusterDirectory(
            configured: nil, logger: logger, workingDirectory: other, fallbackRoot: fallbackRoot)

        #expect(cluster.path.hasPrefix(fallbackRoot.path + "/app-"), "\(cluster.path)")
        #expect(cluster.lastPathComponent == "postgres")
        #expect(otherCluster != cluster, "two checkouts never share a cluster")
        #expect(
            ServerDatabase.embeddedClusterDirectory(configured: nil, logger: logger, workingDirectory: checkout, fallbackRoot: fallbackRoot)
                == cluster, "the same checkout finds its data again")
    }
}
