public import Foundation
internal import Logging
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

extension EmbeddedPostgres {
    /// Makes a hot standby of this running cluster in `directory` and returns it, not started:
    /// `pg_basebackup -R -X stream` copies the cluster over a replication connection on the
    /// socket and writes `standby.signal` with the `primary_conninfo` to stream from it.
    ///
    /// The standby is an ``EmbeddedPostgres`` like any other: ``start()`` writes its own
    /// settings (its socket, its port) and starts it; it then replays everything the primary
    /// commits and answers read-only queries. The primary's defaults suffice
    /// (`wal_level = replica`, `max_wal_senders`, and the `local replication` peer line of
    /// the access rules each start writes).
    ///
    /// - Parameters:
    ///   - directory: The standby's directory; it must not hold a cluster yet.
    ///   - options: The standby's settings (its port names its socket file).
    /// - Returns: The standby, ready to start.
    /// - Throws: ``EmbeddedPostgresError`` when the directory cannot be prepared or
    ///   pg_basebackup fails.
    public func makeStandby(directory: URL, options: Options = .forTesting) async throws -> EmbeddedPostgres {
        let launch = try await prepareLaunch()
        let standby = EmbeddedPostgres(directory: directory, options: options, logger: logger)
        do {
            try FileManager.default.createDirectory(at: standby.directory, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: standby.directory.path)
        } catch {
            throw EmbeddedPostgresError.fileSystem(path: standby.directory.path, reason: "\(error.localizedDescription)")
        }
        try launch.account?.takeOwnership(of: standby.directory.path)
        logger.debug("copying the cluster for a standby", metadata: ["db.data_directory": "\(standby.dataDirectory.path)"])
        try await run(launch, launch.binaries.pgBasebackup, [
            "-D", standby.dataDirectory.path, "-R", "-X", "stream", "--checkpoint=fast", "--no-sync",
            "-h", listeningSocketDirectory, "-p", String(self.options.port),
            "-U", self.options.superuser,
        ])
        return standby
    }

    /// Makes and starts a throwaway hot standby of this cluster, removed when the process exits
    /// (as ``temporary(prefix:options:logger:)`` does for a primary).
    ///
    /// - Parameters:
    ///   - prefix: The directory name's prefix; the directory is `<temporary directory>/<prefix>-<pid>`.
    ///   - options: The standby's settings; ``Options/forTesting`` by default.
    /// - Returns: The running standby.
    /// - Throws: ``EmbeddedPostgresError`` when it cannot be made or started.
    public func temporaryStandby(prefix: String, options: Options = .forTesting) async throws -> EmbeddedPostgres {
        let parent = FileManager.default.temporaryDirectory.standardizedFileURL
        Self.removeAbandonedClusters(in: parent, prefix: prefix, logger: logger)
        let directory = parent.appendingPathComponent("\(prefix)-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        let standby = try await makeStandby(directory: directory, options: options)
        TemporaryClusters.register(directory: directory.path, socketDirectory: standby.socketDirectory)
        try await standby.start()
        return standby
    }
}
