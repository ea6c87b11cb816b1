import Foundation
import StoreSyncAPI

/// Where the database stands while the load runs, as the test declares it. "The database"
/// is whatever the server reaches it through: PostgreSQL itself, or the pooler in front of it.
enum OutagePhase: String, Sendable {
    /// The database is reachable and has not been taken away yet.
    case before
    /// The stop is under way (`pg_ctl stop`, a signal to the pooler): requests may still
    /// finish, or already fail.
    case stopping
    /// The database is unreachable: every request must answer 503.
    case down
    /// The database is starting again, or back and the pool not yet recovered.
    case after
}

/// What the load saw: the data the server accepted (answered 2xx), and every answer that
/// broke the rules of its phase.
actor OutageLedger {
    private(set) var phase = OutagePhase.before
    private(set) var isFinished = false
    /// Accounts the server created (201), with a device token each.
    private(set) var accounts: [UUID: String] = [:]
    /// Transactions the server accepted (200, verdict accepted), by account.
    private(set) var accepted: [UUID: Set<String>] = [:]
    private(set) var violations: [String] = []
    /// 503s answered for requests that started and ended while the database was unreachable.
    private(set) var downAnswers = 0
    /// The slowest of those, in seconds: a figure for the report, not an assertion.
    private(set) var slowestDownAnswer = 0.0
    private(set) var successes: [OutagePhase: Int] = [:]

    func enter(_ phase: OutagePhase) { self.phase = phase }
    func finish() { isFinished = true }

    /// Checks one answer against the phase(s) its request lived in.
    ///
    /// - Parameters:
    ///   - response: The status, content type and problem details, or why no answer came (timeout).
    ///   - started: The phase when the request was sent.
    ///   - ended: The phase when the answer came.
    ///   - seconds: How long the answer took.
    ///   - what: The request, for messages.
    /// - Returns: Whether the answer was 2xx (the caller then records what it accepted).
    func check(
        _ response: Result<(status: Int, contentType: String?, problem: Problem?), any Error>, started: OutagePhase,
        ended: OutagePhase, seconds: Double, what: String
    ) -> Bool {
        guard case .success(let answer) = response else {
            if case .failure(let error) = response { violations.append("\(what) in \(started)→\(ended): no answer: \(error)") }
            return false
        }
        let wholeOutage = started == .down && ended == .down
        switch answer.status {
        case 200..<300:
            if wholeOutage { violations.append("\(what) answered \(answer.status) while the database was unreachable") }
            successes[ended, default: 0] += 1
            return true
        case 503:
            if answer.contentType != "application/problem+json" || answer.problem?.status != 503 {
                violations.append("\(what): 503 without problem details (\(answer.contentType ?? "no content type"))")
            }
            if started == .before && ended == .before {
                violations.append("\(what) answered 503 before the outage")
            }
            if wholeOutage {
                downAnswers += 1
                slowestDownAnswer = max(slowestDownAnswer, seconds)
            }
            return false
        default:
            violations.append("\(what) in \(started)→\(ended) answered \(answer.status): \(answer.problem?.detail ?? "")")
            return false
        }
    }

    func recordAccount(_ session: SessionResponse) {
        accounts[session.accountId] = session.token
    }

    func recordAccepted(_ transactionId: String, account: UUID) {
        accepted[account, default: []].insert(transactionId)
    }
}
