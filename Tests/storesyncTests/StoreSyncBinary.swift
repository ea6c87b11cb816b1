import Foundation

/// Runs the `storesync` executable built beside the test bundle, as an operator would.
struct StoreSyncBinary {
    static let url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("storesync")

    struct Outcome {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// Runs a command to completion with exactly this environment (plus PATH).
    static func run(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil) throws -> Outcome {
        let process = start(arguments, environment: environment, directory: directory)
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// A configured, not yet started process.
    static func start(_ arguments: [String], environment: [String: String], directory: URL?) -> Process {
        let process = Process()
        process.executableURL = url
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
