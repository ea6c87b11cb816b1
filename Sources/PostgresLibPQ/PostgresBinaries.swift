internal import Foundation

/// The directory holding `initdb`, `pg_ctl` and `postgres`.
struct PostgresBinaries: Sendable {
    let directory: String

    var initdb: String { directory + "/initdb" }
    var pgCtl: String { directory + "/pg_ctl" }
    var pgBasebackup: String { directory + "/pg_basebackup" }

    /// Looks where PostgreSQL is installed on Debian, Ubuntu, Homebrew and most Linux systems.
    ///
    /// An explicit directory is the only one tried. Otherwise, in order: `POSTGRES_BIN_DIR`, `pg_config --bindir`, the newest
    /// `/usr/lib/postgresql/*/bin`, Homebrew's `postgresql@*` and `postgresql`, then `PATH`.
    ///
    /// - Parameters:
    ///   - explicit: The one directory to use, if chosen.
    ///   - dataVersion: The major version of an existing data directory (its `PG_VERSION`):
    ///     only binaries of that version are taken, so a newer PostgreSQL installed beside the
    ///     one that made the cluster (a distribution upgrade) does not refuse to start it.
    static func locate(explicit: String?, dataVersion: String? = nil) async throws -> PostgresBinaries {
        if let explicit {
            // An explicit choice is never silently replaced by another installation.
            guard isComplete(explicit) else { throw EmbeddedPostgresError.binariesNotFound(searched: [explicit]) }
            return try await choose(from: [explicit], dataVersion: dataVersion)
        }
        return try await choose(from: await candidateDirectories(), dataVersion: dataVersion)
    }

    /// The first complete candidate, of `dataVersion`'s major version when given.
    ///
    /// - Throws: ``EmbeddedPostgresError/binariesNotFound(searched:)`` when none is complete,
    ///   ``EmbeddedPostgresError/dataVersionNotInstalled(dataVersion:installed:)`` when none
    ///   is of the data directory's version.
    static func choose(from candidates: [String], dataVersion: String?) async throws -> PostgresBinaries {
        let complete = candidates.filter(isComplete)
        guard let first = complete.first else { throw EmbeddedPostgresError.binariesNotFound(searched: candidates) }
        guard let dataVersion else { return PostgresBinaries(directory: first) }
        var installed: [String] = []
        for directory in complete {
            guard let version = await majorVersion(of: directory) else { continue }
            if version == dataVersion { return PostgresBinaries(directory: directory) }
            if !installed.contains(version) { installed.append(version) }
        }
        throw EmbeddedPostgresError.dataVersionNotInstalled(dataVersion: dataVersion, installed: installed)
    }

    /// The major version `postgres --version` reports (`postgres (PostgreSQL) 15.8 (Debian …)`
    /// is 15; 9.6.24 is 9.6, as `PG_VERSION` spells it), or `nil` when it does not answer.
    static func majorVersion(of directory: String) async -> String? {
        guard let outcome = try? await ChildProcess.run(directory + "/postgres", ["--version"]), outcome.status == 0,
            let marker = outcome.output.range(of: "(PostgreSQL) ")
        else { return nil }
        let numbers = outcome.output[marker.upperBound...].prefix { $0.isNumber || $0 == "." }.split(separator: ".")
        guard let major = numbers.first, let value = Int(major) else { return nil }
        return value >= 10 || numbers.count < 2 ? String(value) : "\(value).\(numbers[1])"
    }

    /// Every directory looked in, in order.
    private static func candidateDirectories() async -> [String] {
        var candidates: [String] = []
        let environment = ProcessInfo.processInfo.environment
        if let fromEnvironment = environment["POSTGRES_BIN_DIR"], !fromEnvironment.isEmpty {
            candidates.append(fromEnvironment)
        }
        let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        if let pgConfig = (path + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]).map({ $0 + "/pg_config" })
            .first(where: FileManager.default.isExecutableFile(atPath:)),
            let outcome = try? await ChildProcess.run(pgConfig, ["--bindir"]), outcome.status == 0 {
            candidates.append(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        candidates += versionedDirectories(in: "/usr/lib/postgresql", suffix: "/bin")
        for prefix in ["/opt/homebrew/opt", "/usr/local/opt"] {
            candidates += versionedDirectories(in: prefix, namePrefix: "postgresql@", suffix: "/bin")
            candidates.append(prefix + "/postgresql/bin")
        }
        candidates += ["/opt/homebrew/bin", "/usr/local/bin", "/usr/local/pgsql/bin"] + path
        return candidates
    }

    private static func isComplete(_ directory: String) -> Bool {
        ["initdb", "pg_ctl", "postgres"].allSatisfy { FileManager.default.isExecutableFile(atPath: directory + "/" + $0) }
    }

    /// `<parent>/<name>/<suffix>` for every entry named `<namePrefix><version>`, newest version first.
    private static func versionedDirectories(in parent: String, namePrefix: String = "", suffix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        return names.compactMap { name -> (Double, String)? in
            guard name.hasPrefix(namePrefix), let version = Double(name.dropFirst(namePrefix.count)) else { return nil }
            return (version, parent + "/" + name + suffix)
        }
        .sorted { $0.0 > $1.0 }
        .map(\.1)
    }
}
