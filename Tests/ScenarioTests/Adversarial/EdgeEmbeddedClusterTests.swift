import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncServer
import StoreSyncTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding 11 of the adversarial review: the embedded cluster (`make run`, the tests) adopts
/// nothing another local user prepared, trusts nobody, and the server runs only the migrations
/// it was built or configured with.
@Suite("Adversarial: the embedded cluster") struct EdgeEmbeddedClusterTests {
    private static func scratch(_ name: String = UUID().uuidString) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("storesync-edge-\(name)")
    }

    private static func mode(of path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    private static func expectRefused(_ cluster: EmbeddedPostgres, because reason: String) async {
        let error = await #expect(throws: EmbeddedPostgresError.self) { try await cluster.start() }
        if case .unsafeDirectory(_, let said)? = error {
            #expect(said.contains(reason), "\(said)")
        } else {
            Issue.record("expected unsafeDirectory, got \(String(describing: error))")
        }
    }

    @Test func aClusterDirectoryOpenToOtherUsersIsNotAdopted() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        chmod(directory.path, 0o777)
        let cluster = EmbeddedPostgres(directory: directory, options: .forTesting, logger: TestCluster.logger)
        await Self.expectRefused(cluster, because: "open to other users")
        #expect(Self.mode(of: directory.path) == 0o777, "the directory was changed")
        #expect(!FileManager.default.fileExists(atPath: cluster.dataDirectory.path))
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
    func aClusterDirectoryOfAnotherUserIsNotAdopted() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let stranger: uid_t = 54_321
        #expect(chown(directory.path, stranger, stranger) == 0)
        let cluster = EmbeddedPostgres(directory: directory, options: .forTesting, logger: TestCluster.logger)
        await Self.expectRefused(cluster, because: "belongs to another user")
        var info = stat()
        #expect(stat(directory.path, &info) == 0 && info.st_uid == stranger, "the directory was taken over")
    }

    @Test func aSocketDirectoryPreparedByAnotherUserIsNotAdopted() async throws {
        let directory = Self.scratch()
        let socket = Self.scratch("sock-\(UUID().uuidString.prefix(8))")
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: socket)
        }
        try FileManager.default.createDirectory(at: socket, withIntermediateDirectories: false)
        chmod(socket.path, 0o1777)
        var options = EmbeddedPostgres.Options.forTesting
        options.socketDirectory = socket
        await Self.expectRefused(EmbeddedPostgres(directory: directory, options: options, logger: TestCluster.logger), because: "open to other users")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("data/PG_VERSION").path))
    }

    /// A cluster path too long for a unix socket gets its socket directory from `mkdtemp`:
    /// private, and different every time, so nobody can prepare it beforehand.
    @Test func theSocketFallbackIsPrivateAndUnpredictable() async throws {
        let deep = Self.scratch(String(repeating: "long-segment-", count: 8) + UUID().uuidString)
        let clusters = (0..<2).map { _ in EmbeddedPostgres(directory: deep, options: .forTesting, logger: TestCluster.logger) }
        let sockets = try clusters.map { try #require($0.configuration.host) }
        #expect(sockets[0] != sockets[1])
        for socket in sockets {
            #expect(socket.hasPrefix("/tmp/storesync-sock-"))
            #expect((socket + "/.s.PGSQL.5432").utf8.count <= 100)
            #expect(Self.mode(of: socket) == 0o700)
            var info = stat()
            #expect(stat(socket, &info) == 0 && info.st_uid == geteuid())
        }
    }

    /// Peer authentication, mapped to the one user that started the cluster: a role nobody
    /// mapped is refused even from that user, and no rule trusts anybody.
    @Test func noConnectionIsTrustedWithoutBeingTheUserThatStartedTheCluster() async throws {
        let cluster = try await TestCluster.cluster()
        let role = "intruder_\(UUID().uuidString.prefix(8).lowercased())"
        let methods = try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                try await connection.execute(PostgresQuery(unsafeSQL: "CREATE ROLE \(role) LOGIN SUPERUSER"))
                return try await connection.query("SELECT DISTINCT auth_method FROM pg_hba_file_rules").map {
                    try $0.decode(String.self)
                }
            }
        }
        #expect(methods == ["peer"])
        var intruder = cluster.configuration
        intruder.user = role
        let pool = ConnectionPool(configuration: intruder, size: 1, logger: TestCluster.logger)
        let refused = await #expect(throws: PostgresError.self) {
            try await pool.withConnection { try await $0.execute("SELECT 1") }
        }
        #expect(refused?.isConnectionError == true)
        await pool.shutdown()
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute(PostgresQuery(unsafeSQL: "DROP ROLE \(role)")) }
        }
    }

    /// Swift test runs in the package's directory, which has a `Schema/`: the server must still
    /// take its bundled migrations, never the working directory's.
    @Test func migrationsComeFromTheBundleNotTheWorkingDirectory() throws {
        let resolved = try SchemaLocation.resolve(configured: nil).directory.standardizedFileURL
        #expect(resolved == SchemaLocation.bundledSchema?.standardizedFileURL)
        let workingSchema = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Schema")
        #expect(resolved.path != workingSchema.standardizedFileURL.path)
        let bundled = try FileManager.default.contentsOfDirectory(atPath: resolved.path).filter { $0.hasSuffix(".sql") }
        let repository = try FileManager.default.contentsOfDirectory(atPath: TestDatabase.schemaDirectory.path)
            .filter { $0.hasSuffix(".sql") }
        #expect(Set(bundled) == Set(repository))
    }
}
