internal import Foundation

/// Runs a command to completion without blocking a thread, capturing what it printed.
enum ChildProcess {
    struct Outcome {
        var status: Int32
        var output: String
    }

    /// Runs `executable` with `arguments`; stdout and stderr go to a temporary file, never a
    /// pipe, so a daemon that inherits them (the postmaster) cannot make this wait forever.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        workingDirectory: String? = nil
    ) async throws -> Outcome {
        let outputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("storesync-\(UUID().uuidString).out")
        guard FileManager.default.createFile(atPath: outputFile.path, contents: nil) else {
            throw EmbeddedPostgresError.fileSystem(path: outputFile.path, reason: "cannot create a temporary file")
        }
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let output = try FileHandle(forWritingTo: outputFile)
        defer { try? output.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in
                continuation.resume(returning: finished.terminationStatus)
            }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: EmbeddedPostgresError.commandFailed(
                    command: (executable as NSString).lastPathComponent, status: -1, output: "\(error)"
                ))
            }
        }
        let printed = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        return Outcome(status: status, output: printed)
    }
}
