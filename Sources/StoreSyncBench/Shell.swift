import Foundation
import PostgresLibPQ
import PostgresLibPQTesting

/// Runs the load tools (pgbench, wrk, ps) and returns what they print.
enum Shell {
    /// Runs a program found on PATH and answers its standard output.
    ///
    /// The child is waited for on a thread of its own: a load tool runs for seconds, and
    /// blocking one of the concurrency pool's few threads that long would starve the tasks
    /// measuring beside it (the memory sampler).
    ///
    /// - Throws: ``BenchError`` when it cannot start or exits non-zero (with its stderr).
    static func output(_ program: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        try await DedicatedThread.run(named: program) { try run(program, arguments, environment: environment) }
    }

    /// Whether a program is on PATH.
    static func has(_ program: String) async -> Bool {
        (try? await output("sh", ["-c", "command -v \(program)"])) != nil
    }

    private static func run(_ program: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        let stdout = Pipe()
        // Standard error goes to a file: two pipes read one after the other can deadlock when
        // the child fills the second while we wait on the first.
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("storesync-bench-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errorsFile)
        try process.run()
        // Read before waiting: a full pipe would block the child forever.
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        // Not `waitUntilExit`, which on Linux has been seen never to return for a child that ended.
        let status = ChildExit.wait(for: process)
        let errors = (try? Data(contentsOf: errorsFile)) ?? Data()
        guard status == 0 else {
            throw BenchError(
                "\(program) exited with status \(status): "
                    + (String(data: errors, encoding: .utf8) ?? ""))
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// A bench step that could not run, with the reason.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
