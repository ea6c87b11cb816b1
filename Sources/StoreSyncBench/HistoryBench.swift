import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting

/// How an uncached lookup grows with an account's history: accounts holding 1, 10, 100, 1,000
/// and 10,000 purchases, and one holding a monthly subscription ten years old (120 versions in
/// one chain), each restored through the server, then looked up one request at a time on a
/// server without its snapshot cache.
///
/// The accounts take turns, ``rounds`` times over: a slow stretch of the machine then slows
/// every size alike instead of only the one it falls on, and the growth from one size to the
/// next compares lookups made in the same conditions. A ``FixedJob`` as long as the
/// 1,000-purchase lookup's median takes a turn after them in every round, so the report can
/// set that lookup's p99 beside the best this machine gives a fixed job of its length.
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
        /// Whether the versions are one subscription's renewals rather than distinct purchases.
        let isRenewalChain: Bool
        /// Server milliseconds (`Server-Timing`) of each lookup, every turn's.
        fileprivate(set) var serverMilliseconds: [Double] = []
        /// Milliseconds from request to the end of the answer, as the bench saw them.
        fileprivate(set) var clientMilliseconds: [Double] = []
        /// The snapshot's size as served.
        fileprivate(set) var snapshotBytes = 0

        init(
            label: String, records: Int, isRenewalChain: Bool, serverMilliseconds: [Double] = [],
            clientMilliseconds: [Double] = [], snapshotBytes: Int = 0
        ) {
            self.label = label
            self.records = records
            self.isRenewalChain = isRenewalChain
            self.serverMilliseconds = serverMilliseconds
            self.clientMilliseconds = clientMilliseconds
            self.snapshotBytes = snapshotBytes
        }

        /// Whether this is the account issue 28 holds to a p99: 1,000 distinct purchases.
        var isTargetAccount: Bool { records == HistoryBench.targetPurchases && !isRenewalChain }
    }

    /// What the phase measured.
    struct Results: Sendable {
        /// Each account's lookups, in the order of their sizes, the renewal chain last.
        var accounts: [Account] = []
        /// The fixed job beside the 1,000-purchase account's lookups; `nil` without that account.
        var machineTail: MachineTail?
    }

    /// The purchases of the account whose uncached lookup has a p99 target.
    static let targetPurchases = 1_000

    /// Months of the long-lived subscription.
    static let renewalMonths = 120
    /// Turns each account gets, each of about a ``rounds``th of ``seconds``.
    static let rounds = 5
    /// The fewest lookups of an account in one turn: 20 in all, as many as one long turn had.
    static let minimumLookupsPerTurn = 4
    /// The most lookups of an account in all: a fast account's p99 needs no more.
    static let maximumLookups = 10_000
    /// Transaction ids of the phase start here: no other phase's range meets it.
    static let firstId: Int64 = 7_000_000_000_000

    func run(sizes: [Int]) async throws -> Results {
        let entries = SignedEntries(signer: workspace.signer)
        var nextId = Self.firstId
        var histories: [(label: String, records: [TransactionRecord], isRenewalChain: Bool)] = []
        for size in sizes {
            histories.append(("\(size) purchase" + (size == 1 ? "" : "s"), entries.purchases(count: size, firstId: nextId), false))
            nextId += Int64(size)
        }
        histories.append((
            "1 subscription × \(Self.renewalMonths) renewals", entries.monthlyChain(months: Self.renewalMonths, firstId: nextId),
            true
        ))
        var results = Results()
        var tokens: [String] = []
        for history in histories {
            tokens.append(try await restore(history.records))
            results.accounts.append(Account(label: history.label, records: history.records.count, isRenewalChain: history.isRenewalChain))
        }
        let turn = Duration.milliseconds(seconds * 1_000 / Self.rounds)
        var job: FixedJob?
        for _ in 0..<Self.rounds {
            for index in results.accounts.indices {
                try await lookUp(&results.accounts[index], token: tokens[index], for: turn)
            }
            // Sized once, after the first round: to the median of the lookups it stands beside.
            if job == nil, let target = results.accounts.first(where: \.isTargetAccount) {
                let p50 = Percentile.of(target.serverMilliseconds, 50)
                job = FixedJob(taking: p50)
                results.machineTail = MachineTail(sizedTo: p50)
            }
            if let job {
                results.machineTail?.milliseconds += job.run(
                    for: turn, minimum: Self.minimumLookupsPerTurn, maximum: Self.maximumLookups / Self.rounds)
            }
        }
        return results
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

    /// Looks the account up one request at a time for about `turn` and at least
    /// ``minimumLookupsPerTurn`` times, after one lookup left out (the turn's first finds the
    /// caches, PostgreSQL's and the CPU's, holding the previous account's rows), and adds the
    /// turn's lookups to the account's.
    private func lookUp(_ account: inout Account, token: String, for turn: Duration) async throws {
        _ = try await lookup(token: token)
        let start = ContinuousClock.now
        var count = 0
        while count < Self.minimumLookupsPerTurn
            || (ContinuousClock.now - start < turn && count < Self.maximumLookups / Self.rounds)
        {
            let sent = ContinuousClock.now
            let response = try await lookup(token: token)
            account.clientMilliseconds.append((ContinuousClock.now - sent).milliseconds)
            account.serverMilliseconds.append(try response.serverMilliseconds(of: "lookup"))
            account.snapshotBytes = response.body.count
            count += 1
        }
    }

    private func lookup(token: String) async throws -> TestResponse {
        let response = try await server.send("GET", "/v1/entitlements", token: token, timeout: .seconds(60))
        guard response.status == 200 else { throw BenchError("a history lookup answered \(response.status)") }
        return response
    }
}
