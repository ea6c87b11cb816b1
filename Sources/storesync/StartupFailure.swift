import ArgumentParser
import Foundation
import Logging
import PostgresLibPQ
import StoreSyncServer

/// Start-up failures that are the operator's to fix: one line on standard error, exit 2. The
/// line is a JSON log line (level `critical`) once `LOG_FORMAT=json` was read, else text.
enum StartupFailure {
    static func exit(_ line: String) -> ExitCode {
        write(line, exitCode: 2)
        return ExitCode(2)
    }

    private static func write(_ line: String, exitCode: Int32) {
        if ProcessLogging.format == .json {
            StandardError.write(
                JSONLogHandler.line(
                    timestamp: Date(), level: .critical, label: "storesync", message: line,
                    metadata: ["exit_code": "\(exitCode)"]) + "\n")
        } else {
            StandardError.write("storesync: \(line)\n")
        }
    }

    /// Runs `body`; a bad setting or an embedded database that does not start ends the process
    /// with one line naming it and exit 2, anything else is thrown on (under JSON logging, told
    /// as a log line first and ended with exit 1).
    static func reporting<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let failure as ConfigurationError {
            throw exit(failure.description)
        } catch let failure as EmbeddedDatabaseError {
            throw exit(failure.description)
        } catch let failure as PostgresError where failure.isConnectionError {
            throw exit(operatorText(failure))
        } catch let code as ExitCode {
            throw code
        } catch where ProcessLogging.format == .json {
            // Anything else ends the process as before (exit 1), told as a log line rather
            // than the argument parser's plain `Error:` text.
            write(operatorText(error), exitCode: 1)
            throw ExitCode.failure
        }
    }

    /// What an operator reads of a failure to start: for a database error, the code and
    /// libpq's or PostgreSQL's own message (a wrong password, a host that refuses), which the
    /// code alone does not say. A connection error quotes no user data.
    static func operatorText(_ error: any Error) -> String {
        guard let error = error as? PostgresError else { return "\(error)" }
        return "PostgreSQL: \(error)" + (error.message.map { ": \($0)" } ?? "")
    }
}
