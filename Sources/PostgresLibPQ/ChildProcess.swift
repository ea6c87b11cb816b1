internal import CLibPQ
internal import Foundation

/// Runs a command to completion on a thread of its own, capturing what it printed.
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
        try await DedicatedThread.run(named: "storesync \((executable as NSString).lastPathComponent)") {
            try runBlocking(executable, arguments, environment: environment, workingDirectory: workingDirectory)
        }
    }

    private static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String]?, workingDirectory: String?
    ) throws -> Outcome {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("storesync-\(UUID().uuidString).out").path
        let outputFD = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard outputFD >= 0 else {
            throw EmbeddedPostgresError.fileSystem(path: outputPath, reason: String(cString: strerror(errno)))
        }
        defer { unlink(outputPath) }
        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let spawnError = withMutableCStringArray([executable] + arguments) { argv in
            withMutableCStringArray(environment) { envp in
                CLibPQ_spawn(executable, argv, envp, workingDirectory, outputFD, &pid)
            }
        }
        close(outputFD)
        let name = (executable as NSString).lastPathComponent
        guard spawnError == 0 else {
            throw EmbeddedPostgresError.commandFailed(command: name, status: -1, output: String(cString: strerror(spawnError)))
        }
        let status = CLibPQ_waitForExit(pid)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return Outcome(status: status, output: output)
    }
}
