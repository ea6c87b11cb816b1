internal import Foundation
internal import NIOConcurrencyHelpers
internal import Logging

extension EmbeddedPostgres {
    /// What every pg_ctl and initdb call needs: where the tools are and who runs them.
    struct Launch {
        let binaries: PostgresBinaries
        let account: ServerAccount?

        func command(_ tool: String, _ arguments: [String]) -> (String, [String]) {
            guard let account else { return (tool, arguments) }
            return (account.launcherPrefix[0], Array(account.launcherPrefix.dropFirst()) + [tool] + arguments)
        }
    }

    func prepareLaunch() async throws -> Launch {
        Launch(
            binaries: try await PostgresBinaries.locate(explicit: options.binDirectory?.path, dataVersion: dataVersion()),
            account: try ServerAccount.resolve(preferred: options.unprivilegedUser)
        )
    }

    /// The major version of PostgreSQL that made the data directory (`PG_VERSION`), `nil`
    /// before there is one. Read as this process can: as root, the directory is another
    /// account's, and an unreadable file only means binaries are chosen as for a new cluster.
    func dataVersion() -> String? {
        guard let data = FileManager.default.contents(atPath: dataDirectory.appendingPathComponent("PG_VERSION").path) else {
            return nil
        }
        let version = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return version.isEmpty ? nil : version
    }

    func performStart() async throws {
        let launch = try await prepareLaunch()
        try prepareDirectories(for: launch.account)
        if !FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("PG_VERSION").path) {
            try await initialiseCluster(launch)
        }
        try writeSettings(owner: launch.account)
        try writeAccessRules(owner: launch.account)
        let lock = ClusterLock.acquire(in: directory)
        ownership.withLockedValue { $0 = lock }
        if try await isRunning(launch) {
            logger.debug(
                lock == nil ? "embedded PostgreSQL already running, in use by another process" : "adopting a running embedded PostgreSQL",
                metadata: ["db.data_directory": "\(dataDirectory.path)"])
            // A server left running by an earlier process reads the access rules written now;
            // its socket stays where it was opened (a reload does not move it).
            try await run(launch, launch.binaries.pgCtl, ["reload", "-D", dataDirectory.path, "-s"])
            if let running = socketDirectoryInPIDFile() { socketInUse.withLockedValue { $0 = running } }
            return
        }
        logger.debug("starting embedded PostgreSQL", metadata: ["db.data_directory": "\(dataDirectory.path)"])
        let logFile = directory.appendingPathComponent("server.log").path
        try await run(launch, launch.binaries.pgCtl, ["start", "-D", dataDirectory.path, "-l", logFile, "-w", "-t", "120", "-s"], logFile: logFile)
    }

    func performStop(mode: ShutdownMode) async throws {
        guard ownership.withLockedValue({ $0 }) != nil else {
            logger.debug("embedded PostgreSQL left running for the process that uses it", metadata: ["db.data_directory": "\(dataDirectory.path)"])
            return
        }
        if FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("postmaster.pid").path) {
            let launch = try await prepareLaunch()
            if try await isRunning(launch) {
                logger.debug("stopping embedded PostgreSQL", metadata: ["db.data_directory": "\(dataDirectory.path)"])
                try await run(launch, launch.binaries.pgCtl, ["stop", "-D", dataDirectory.path, "-m", mode.rawValue, "-w", "-t", "120", "-s"])
            }
        }
        // Kept until the server is down: a stop that failed can be tried again.
        ownership.withLockedValue { $0 = nil }
    }

    /// The socket directory a running server listens in, from its `postmaster.pid` (the fifth
    /// line: the first of `unix_socket_directories`); `nil` when it names none.
    private func socketDirectoryInPIDFile() -> String? {
        guard let text = try? String(contentsOf: dataDirectory.appendingPathComponent("postmaster.pid"), encoding: .utf8)
        else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 4, !lines[4].isEmpty else { return nil }
        return String(lines[4])
    }

    /// `pg_ctl status`: 0 running, 3 not running, 4 no usable data directory.
    private func isRunning(_ launch: Launch) async throws -> Bool {
        let (executable, arguments) = launch.command(launch.binaries.pgCtl, ["status", "-D", dataDirectory.path])
        let outcome = try await ChildProcess.run(executable, arguments, environment: environment, workingDirectory: directory.path)
        return outcome.status == 0
    }

    private func initialiseCluster(_ launch: Launch) async throws {
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)) ?? []
        guard existing.isEmpty else { throw EmbeddedPostgresError.dataDirectoryNotEmpty(path: dataDirectory.path) }
        logger.debug("initialising embedded PostgreSQL cluster", metadata: ["db.data_directory": "\(dataDirectory.path)"])
        var arguments = [
            "-D", dataDirectory.path, "-U", options.superuser, "--auth-local=peer", "--auth-host=reject",
            "--encoding=UTF8", "--locale=C",
        ]
        if !options.durable { arguments.append("--no-sync") }
        try await run(launch, launch.binaries.initdb, arguments)
        // Settings live in a file rewritten at every start, so changed options take effect.
        let configuration = dataDirectory.appendingPathComponent("postgresql.conf")
        let handle = try FileHandle(forWritingTo: configuration)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\ninclude_if_exists = 'storesync.conf'\n".utf8))
    }

    private func writeSettings(owner: ServerAccount?) throws {
        var settings: [String: String] = [
            "listen_addresses": "",
            "port": String(options.port),
            "unix_socket_directories": socketDirectory,
            // Only the owner (and root) may reach the socket; peer authentication then admits
            // the one user that started the cluster (writeAccessRules).
            "unix_socket_permissions": "0700",
            "max_connections": String(options.maxConnections),
            "shared_buffers": options.sharedBuffers,
            "fsync": options.durable ? "on" : "off",
            "synchronous_commit": options.durable ? "on" : "off",
            "full_page_writes": options.durable ? "on" : "off",
            "timezone": "UTC",
        ]
        settings.merge(options.settings) { _, explicit in explicit }
        let text = settings.keys.sorted().map { key in
            "\(key) = '\(settings[key, default: ""].replacingOccurrences(of: "'", with: "''"))'"
        }.joined(separator: "\n") + "\n"
        let path = dataDirectory.appendingPathComponent("storesync.conf").path
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw EmbeddedPostgresError.fileSystem(path: path, reason: "cannot write the settings")
        }
        try owner?.takeOwnership(of: path)
    }

    /// Creates the cluster, data and socket directories, private to the server's account, or
    /// checks that existing ones are (``ensurePrivateDirectory(_:owners:)``).
    private func prepareDirectories(for account: ServerAccount?) throws {
        let owners = [geteuid()] + (account.map { [$0.uid] } ?? [])
        for path in [directory.path, dataDirectory.path, socketDirectory] {
            try Self.ensurePrivateDirectory(path, owners: owners)
        }
        guard let account else { return }
        // The socket directory is checked only when it lies elsewhere (a short path under /tmp).
        let outside = [directory.path, socketDirectory].filter { $0 == directory.path || !$0.hasPrefix(directory.path + "/") }
        for path in outside {
            if let blocked = account.firstUntraversableAncestor(of: path) {
                throw EmbeddedPostgresError.directoryNotReachable(user: account.name, blockedAt: blocked)
            }
        }
        let owner = (try? FileManager.default.attributesOfItem(atPath: directory.path)[.ownerAccountID] as? NSNumber)?.uint32Value
        if owner != account.uid {
            try account.takeOwnership(of: directory.path)
        } else {
            // Files written by root since (a log, settings) still need handing over.
            try account.takeOwnership(of: dataDirectory.path)
        }
        try account.takeOwnership(of: socketDirectory)
    }

    /// The environment for PostgreSQL tools: a plain C locale, and nothing that redirects them.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") && !$0.key.hasPrefix("LC_") }
        environment["LANG"] = "C"
        environment["LC_ALL"] = "C"
        return environment
    }

    func run(_ launch: Launch, _ tool: String, _ arguments: [String], logFile: String? = nil) async throws {
        let (executable, fullArguments) = launch.command(tool, arguments)
        let outcome = try await ChildProcess.run(executable, fullArguments, environment: environment, workingDirectory: directory.path)
        guard outcome.status == 0 else {
            var output = outcome.output
            if let logFile, let log = try? String(contentsOfFile: logFile, encoding: .utf8) {
                output += "\n" + log.split(whereSeparator: \.isNewline).suffix(20).joined(separator: "\n")
            }
            logger.debug("PostgreSQL tool failed", metadata: ["db.command": "\(tool)", "db.output": "\(output)"])
            throw EmbeddedPostgresError.commandFailed(command: (tool as NSString).lastPathComponent, status: outcome.status, output: output)
        }
    }
}
