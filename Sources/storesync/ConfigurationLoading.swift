import ArgumentParser
import Configuration
import Foundation
import StoreSyncServer

/// Start-up failures that are the operator's to fix: one line on standard error, exit 2.
enum StartupFailure {
    static func exit(_ line: String) -> ExitCode {
        FileHandle.standardError.write(Data("storesync: \(line)\n".utf8))
        return ExitCode(2)
    }
}

extension ServerConfiguration {
    /// Reads the configuration from the environment, or exits 2 naming the bad setting.
    static func fromEnvironment() throws(ExitCode) -> ServerConfiguration {
        do {
            return try ServerConfiguration(reader: ConfigReader(providers: [EnvironmentVariablesProvider()]))
        } catch {
            throw StartupFailure.exit(error.description)
        }
    }

    /// The settings table shown by `storesync serve --help`.
    static var settingsHelp: String {
        let width = Setting.all.map(\.environmentName.count).max() ?? 0
        let lines = Setting.all.map { setting in
            setting.environmentName.padding(toLength: width + 2, withPad: " ", startingAt: 0) + setting.summary
        }
        return "Configuration (environment variables):\n" + lines.joined(separator: "\n")
    }
}
