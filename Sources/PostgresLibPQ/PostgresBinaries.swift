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
    static func locate(explicit: String?) async throws -> PostgresBinaries {
        if let explicit {
            // An explicit choice is never silently replaced by another installation.
            guard isComplete(explicit) else { throw EmbeddedPostgresError.binariesNotFound(searched: [explicit]) }
            return PostgresBinaries(directory: explicit)
        }
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
        for candidate in candidates where isComplete(candidate) {
            return PostgresBinaries(directory: candidate)
        }
        throw EmbeddedPostgresError.binariesNotFound(searched: candidates)
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
