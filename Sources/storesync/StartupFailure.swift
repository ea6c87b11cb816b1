import ArgumentParser
import Foundation
import StoreSyncServer

/// Start-up failures that are the operator's to fix: one line on standard error, exit 2.
enum StartupFailure {
    static func exit(_ line: String) -> ExitCode {
        FileHandle.standardError.write(Data("storesync: \(line)\n".utf8))
        return ExitCode(2)
    }

    /// Runs `body`; a bad setting or an embedded database that does not start ends the process
    /// with one line naming it and exit 2, anything else is thrown on.
    static func reporting<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let failure as ConfigurationError {
            throw exit(failure.description)
        } catch let failure as EmbeddedDatabaseError {
            throw exit(failure.description)
        }
    }
}
