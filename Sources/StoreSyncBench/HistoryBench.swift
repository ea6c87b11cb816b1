import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting

/// How an uncached lookup grows with an account's history: accounts holding 1, 10, 100, 1,000
/// and 10,000 purchases, and one holding a monthly subscription ten years old (120 versions in
/// one chain), each restored through the server, then looked up one request at a time on a
/// server without its snapshot cache.
struct HistoryBench {
    let server: ServerProcess
    let workspace: BenchWorkspace
    /// About how long each account is looked up.
    let seconds: Int

    /// One account's history and its lookups.
    struct Account: Sendable {
        let label: String
        /// Versions the account holds.
        let records: Int
        /// Server milliseconds (`Server-Timing`) of each lookup.
        let serverMilliseconds: [Double]
        /// Milliseconds from request to the end of the answer, as the bench saw them.
        let clientMilliseconds: [Double]
        /// The snapshot's size as served.
        let snapshotBytes: Int
    }

    /// Months of the long-lived subscription.
    static let renewalMonths = 120
    /// Transaction ids of the phase start here: no other phase's range meets it.
    static let firstId: Int64 = 7_000_000_000_000

    func run(sizes: [Int]) async throws -> [Account] {
        let entries = SignedEntries(signer: workspace.signer)
        var nextId = Self.firstId
        var histories: [(label: String, records: [TransactionRecord])] = []
        for size in sizes {
            histories.append(("\(size) purchase" + (size == 1 ? "" : "s"), entries.purchases(count: size, firstId: nextId)))
            nextId += Int64(size)
        }
        histories.append((
            "1 subscription × \(Self.renewalMonths) renewals", entries.monthlyChain(months: Self.renewalMonths, firstId: nextId)
        ))
        var accounts: [Account] = []
        for history in histories {
            let token = try await restore(history.records)
            accounts.append(try await lookUp(history.label, records: history.records.count, token: token))
        }
        return accounts
    }

    /// Signs up an account and restores `records` into it; answers its token.
    private func restore(_ records: [TransactionRecord]) async throws -> String {
        let session = try await BenchClients.signUp(on: server, email: BenchClients.email("history"))
        let body = try StoreSyncJSON.makeEncoder().encode(RestoreRequest(entries: records, userInitiated: true))
        let response = try await server.send("POST", "/v1/restore", token: session.token, body: body, timeout: .seconds(300))
        guard response.status == 200 else { throw BenchError("a history restore answered \(response.status)") }
        let accepted = try response.decode(SyncResponse.self).verdicts.filter { $0.verdict == .accepted }.count
        guard accepted == records.count else {
            throw BenchError("a history restore of \(records.count) entries got \(accepted) accepted")
        }
        return session.token
    }

    /// Looks the account up one request at a time, for about ``seconds`` and at least 20 times.
    private func lookUp(_ label: String, records: Int, token: String) async throws -> Account {
        var serverTimes: [Double] = []
        var clientTimes: [Double] = []
        var bytes = 0
        _ = try await lookup(token: token)
        let start = ContinuousClock.now
        while serverTimes.count < 20 || (ContinuousClock.now - start < .seconds(seconds) && serverTimes.count < 10_000) {
            let sent = ContinuousClock.now
            let response = try await lookup(token: token)
            clientTimes.append((ContinuousClock.now - sent).milliseconds)
            serverTimes.append(try response.serverMilliseconds(of: "lookup"))
            bytes = response.body.count
        }
        return Account(
            label: label, records: records, serverMilliseconds: serverTimes, clientMilliseconds: clientTimes,
            snapshotBytes: bytes)
    }

    private func lookup(token: String) async throws -> TestResponse {
        let response = try await server.send("GET", "/v1/entitlements", token: token, timeout: .seconds(60))
        guard response.status == 200 else { throw BenchError("a history lookup answered \(response.status)") }
        return response
    }
}
