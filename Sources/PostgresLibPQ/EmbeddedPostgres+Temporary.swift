internal import Foundation
public import Logging
internal import NIOConcurrencyHelpers
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

extension EmbeddedPostgres {
    /// Starts a throwaway cluster for this process, removed when the process exits.
    ///
    /// The cluster lives in `<temporary directory>/<prefix>-<pid>` with test settings (no
    /// fsync). Clusters that earlier processes left behind (crashed, killed) are stopped and
    /// deleted first. At exit the server is killed and the directory removed; a process killed
    /// with SIGKILL leaves it for the next run to clean up.
    ///
    /// - Parameters:
    ///   - prefix: The directory name's prefix, shared by all processes of one kind.
    ///   - options: The cluster's settings; ``Options/forTesting`` by default.
    ///   - logger: Receives debug messages.
    /// - Returns: The started cluster.
    /// - Throws: ``EmbeddedPostgresError`` when it cannot start.
    public static func temporary(
        prefix: String = "storesync-pg", options: Options = .forTesting, logger: Logger
    ) async throws -> EmbeddedPostgres {
        let parent = FileManager.default.temporaryDirectory.standardizedFileURL
        removeAbandonedClusters(in: parent, prefix: prefix, logger: logger)
        let directory = parent.appendingPathComponent("\(prefix)-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        let cluster = EmbeddedPostgres(directory: directory, options: options, logger: logger)
        TemporaryClusters.register(directory: directory.path, socketDirectory: cluster.socketDirectory)
        try await cluster.start()
        return cluster
    }

    /// Deletes `<prefix>-<pid>` directories whose process is gone, killing their server first.
    static func removeAbandonedClusters(in parent: URL, prefix: String, logger: Logger) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(prefix + "-") {
            guard let owner = Int32(name.dropFirst(prefix.count + 1)), owner != getpid() else { continue }
            if kill(owner, 0) == 0 || errno == EPERM { continue }
            let path = parent.appendingPathComponent(name).path
            logger.debug("removing an abandoned PostgreSQL cluster", metadata: ["db.data_directory": "\(path)"])
            TemporaryClusters.destroy(directory: path, socketDirectory: nil)
        }
    }
}

/// Clusters to kill and delete when the process exits.
enum TemporaryClusters {
    private struct Entry: Sendable {
        var directory: String
        var socketDirectory: String
    }

    private static let entries = NIOLockedValueBox<[Entry]>([])
    private static let installHook: Void = {
        atexit {
            TemporaryClusters.destroyAll()
        }
    }()

    static func register(directory: String, socketDirectory: String) {
        _ = installHook
        entries.withLockedValue { $0.append(Entry(directory: directory, socketDirectory: socketDirectory)) }
    }

    private static func destroyAll() {
        for entry in entries.withLockedValue({ $0 }) {
            destroy(directory: entry.directory, socketDirectory: entry.socketDirectory)
        }
    }

    /// Sends the postmaster SIGQUIT (immediate shutdown), waits up to five seconds, deletes the files.
    static func destroy(directory: String, socketDirectory: String?) {
        let pidFile = directory + "/data/postmaster.pid"
        if let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
           let firstLine = text.split(whereSeparator: \.isNewline).first,
           let postmaster = Int32(firstLine.trimmingCharacters(in: .whitespaces)), postmaster > 1 {
            if kill(postmaster, SIGQUIT) == 0 {
                for _ in 0..<100 where kill(postmaster, 0) == 0 {
                    usleep(50_000)
                }
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
        if let socketDirectory, !socketDirectory.hasPrefix(directory + "/") {
            try? FileManager.default.removeItem(atPath: socketDirectory)
        }
    }
}
