import ArgumentParser
import Foundation
import PostgresLibPQ
import StoreSyncServer

/// Start-up failures that are the operator's to fix: one line on standard error, exit 2.
enum StartupFailure {
    static func exit(_ line: String) -> ExitCode {
        StandardError.write("storesync: \(line)\n")
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
        } catch let failure as PostgresError where failure.isConnectionError {
            throw exit(operatorText(failure))
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
