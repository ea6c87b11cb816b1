import Hummingbird
import StoreSyncAPI
import Logging
import Metrics
import NIOCore
import PostgresLibPQ

/// Turns every error into `application/problem+json`: client errors keep their type (a
/// service's errors as ProblemMapping.swift maps them), a database that cannot be reached is a
/// 503 the client may retry, and anything unexpected is logged with the request id — never with
/// row data — and answered as a generic 500 that leaks nothing.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try Self.problem(for: error, context: context).response(from: request, context: context)
        }
    }

    static func problem(for error: any Error, context: Context) -> ProblemError {
        switch error {
        case let problem as ProblemError:
            return problem
        case let refused as RequestError:
            return ProblemError(refused)
        case let refused as AccountError:
            return ProblemError(refused)
        case let refused as SyncError:
            return ProblemError(refused)
        case let refused as VerificationError:
            return ProblemError(refused)
        case let failure as AppStoreAPIFailure:
            if case .apple = failure {
                context.logger.warning("App Store Server API call failed", metadata: ["error": "\(failure)"])
            }
            return ProblemError(failure)
        case is NIOTooManyBytesError:
            return ProblemError(.payloadTooLarge, status: .contentTooLarge, detail: "the body is too large")
        case let httpError as HTTPError:
            return problem(for: httpError)
        case let database as PostgresError where database.code == .characterNotInRepertoire:
            // Text PostgreSQL cannot store: a U+0000 in some field of the request that no rule
            // of ours caught first. The statement failed, so nothing was written.
            return .invalidRequest("a text field holds the NUL character (U+0000), which cannot be stored")
        case let database as PostgresError where database.code == .lockNotAvailable || database.code == .queryCanceled:
            // DATABASE_LOCK_TIMEOUT_SECONDS or DATABASE_STATEMENT_TIMEOUT_SECONDS ran out: the
            // transaction rolled back, so nothing was written; the client may retry.
            DatabaseFailures.timeouts.increment()
            warnOnce(in: context, "database statement timed out", metadata: ["db.sqlstate": "\(database.code)"])
            return .serviceUnavailable("the database is busy; retry shortly")
        case let database as PostgresError where database.isConnectionError:
            DatabaseFailures.unavailable.increment()
            warnOnce(in: context, "database unavailable", metadata: ["error": "\(database.logDescription)"])
            return .serviceUnavailable("the database is unavailable; retry shortly")
        default:
            context.logger.error("unexpected error", metadata: ["error": "\(loggable(error))"])
            return .internal()
        }
    }

    /// Writes a warning at most once per 10 s for its message (``DatabaseFailures/warnings``),
    /// saying how many were held back before it.
    private static func warnOnce(in context: Context, _ message: Logger.Message, metadata: Logger.Metadata) {
        guard let heldBack = DatabaseFailures.warnings.admit(message.description) else { return }
        var metadata = metadata
        if heldBack > 0 { metadata["log.held_back"] = "\(heldBack)" }
        context.logger.warning(message, metadata: metadata)
    }

    /// An unexpected error as the log may carry it: a database error without the row data its
    /// detail quotes (``PostgresLibPQ/PostgresError/logDescription``), anything else in full.
    static func loggable(_ error: any Error) -> String {
        if let database = error as? PostgresError { return database.logDescription }
        return String(reflecting: error)
    }

    private static func problem(for error: HTTPError) -> ProblemError {
        switch error.status {
        case .notFound: return .notFound()
        case .methodNotAllowed:
            return ProblemError(.notFound, status: .methodNotAllowed, detail: "this route does not take that method")
        case .contentTooLarge: return ProblemError(.payloadTooLarge, status: .contentTooLarge, detail: error.body)
        case .unsupportedMediaType: return .unsupportedMediaType(nil)
        case .unauthorized: return .unauthorized()
        default:
            let type: ProblemType = error.status.code < 500 ? .invalidRequest : .internal
            return ProblemError(type, status: error.status, detail: error.body, headers: error.headers)
        }
    }
}

/// Requests the database failed, by kind: what the throttled warnings no longer show one by one.
enum DatabaseFailures {
    /// The warnings about them, throttled: one per kind per 10 s.
    static let warnings = WarningThrottle()
    /// A lock or statement timeout ran out (`storesync_db_errors_total{kind="timeout"}`).
    static let timeouts = Counter(label: "storesync_db_errors_total", dimensions: [("kind", "timeout")])
    /// The database could not be reached (`storesync_db_errors_total{kind="unavailable"}`).
    static let unavailable = Counter(label: "storesync_db_errors_total", dimensions: [("kind", "unavailable")])
}
