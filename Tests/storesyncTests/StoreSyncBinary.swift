import Foundation
import PostgresLibPQTesting

/// Runs the `storesync` executable built beside the test bundle, as an operator would.
struct StoreSyncBinary {
    static let url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("storesync")

    struct Outcome {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// Runs a command to completion with exactly this environment (plus PATH): `storesync`'s, or
    /// another executable built beside it.
    ///
    /// Its output goes to files, never to pipes: a daemon another test spawns meanwhile (a
    /// PostgreSQL cluster, PgBouncer) inherits whatever descriptors are open at that moment, and
    /// a pipe end it kept would make reading to the end wait forever.
    /// `standardError` names a file to write standard error to instead (e.g. `/dev/full`, where
    /// every write fails); the outcome's `standardError` is then empty.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil, executable: URL = url,
        standardError errorPath: String? = nil
    ) throws -> Outcome {
        let process = start(arguments, environment: environment, directory: directory, executable: executable)
        let files = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: files) }
        let outputFile = files.appendingPathComponent("stdout")
        let errorFile = files.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        let error = try errorPath.map { try FileHandle(forWritingTo: URL(fileURLWithPath: $0)) }
            ?? FileHandle(forWritingTo: errorFile)
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let status = ChildExit.wait(for: process)
        try output.close()
        try error.close()
        return Outcome(
            status: status, standardOutput: try String(contentsOf: outputFile, encoding: .utf8),
            standardError: try String(contentsOf: errorFile, encoding: .utf8))
    }

    /// A configured, not yet started process.
    static func start(_ arguments: [String], environment: [String: String], directory: URL?, executable: URL = url) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var fullEnvironment = environment
        fullEnvironment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        process.environment = fullEnvironment
        if let directory { process.currentDirectoryURL = directory }
        return process
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("storesync-cli-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
