import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting

/// Times `POST /v1/restore` by the server's own clock (`Server-Timing`), for restores of
/// several sizes, each by a new account with transactions the server has never seen (every
/// JWS verified), then the same request again (every entry already known), and once more on
/// another instance, which has not seen these JWS itself (as behind a load balancer, or after
/// a restart). Each first restore takes turns with its floor (``RestoreFloor``): the same JWS
/// verified in the bench process, and the same rows stored by the server's statements.
struct RestoreBench {
    let server: ServerProcess
    /// A second instance on the same database.
    let elsewhere: ServerProcess
    let floor: RestoreFloor
    let workspace: BenchWorkspace

    struct Timing: Sendable {
        let entries: Int
        /// Server milliseconds of first restores: every entry new.
        let fresh: [Double]
        /// Server milliseconds of the same restores repeated: every entry known.
        let repeated: [Double]
        /// Server milliseconds of the same restores on the other instance: every entry known to
        /// the database, none seen by that instance.
        let elsewhere: [Double]
        /// Milliseconds to verify the same JWS on every core, nothing else running.
        let verifying: [Double]
        /// Milliseconds for PostgreSQL to store the same rows alone.
        let storing: [Double]
        /// Milliseconds to do both at once (``RestoreFloor/sideBySideMilliseconds(_:for:)``).
        let sideBySide: [Double]

        /// The larger of the two halves' p50s: the floor if they could overlap completely.
        var longerHalf: Double { max(Percentile.of(verifying, 50), Percentile.of(storing, 50)) }

        /// The floor's p50: both halves at once, never less than the longer one.
        var floor: Double { max(longerHalf, Percentile.of(sideBySide, 50)) }
    }

    /// Repetitions per size: enough for a p50 and a p99 without running for minutes.
    ///
    /// Thirty from 1,000 entries, the size the restore target is read at: with a p50 of ten,
    /// the ratio to the floor moved from one run to the next by as much as a change is worth
    /// (PERFORMANCE.md), and a run's first restores of a size, its slowest while the heap grows
    /// back to them, weighed on it.
    static func repetitions(for entries: Int) -> Int {
        switch entries {
        case ..<100: 40
        case ..<1_000: 20
        case ..<10_000: 30
        default: 3
        }
    }

    func run(sizes: [Int]) async throws -> [Timing] {
        var timings: [Timing] = []
        var nextId: Int64 = 3_000_000_000_000
        for size in sizes {
            var fresh: [Double] = []
            var repeated: [Double] = []
            var elsewhere: [Double] = []
            var verifying: [Double] = []
            var storing: [Double] = []
            var sideBySide: [Double] = []
            for _ in 0..<Self.repetitions(for: size) {
                let session = try await BenchClients.signUp(on: server, email: BenchClients.email("restore"))
                let entries = SignedEntries(signer: workspace.signer).purchases(count: size, firstId: nextId)
                let body = try StoreSyncJSON.makeEncoder().encode(RestoreRequest(entries: entries, userInitiated: true))
                nextId += Int64(size)
                verifying.append(try await floor.verifyMilliseconds(entries.compactMap(\.signedTransaction)))
                fresh.append(try await restore(body, token: session.token, expecting: size, verdict: .accepted))
                repeated.append(try await restore(body, token: session.token, expecting: size, verdict: .known))
                elsewhere.append(
                    try await restore(body, on: self.elsewhere, token: session.token, expecting: size, verdict: .known))
                // Last: the copies join the account's rows, which the repeated restores read.
                storing.append(try await floor.storeMilliseconds(entries, for: session.accountId))
                sideBySide.append(try await floor.sideBySideMilliseconds(entries, for: session.accountId))
            }
            timings.append(Timing(
                entries: size, fresh: fresh, repeated: repeated, elsewhere: elsewhere, verifying: verifying,
                storing: storing, sideBySide: sideBySide))
        }
        return timings
    }

    /// Posts one restore and answers the server's time for it, after checking every entry got
    /// the expected verdict (a fast wrong answer is not a result).
    private func restore(
        _ body: Data, on instance: ServerProcess? = nil, token: String, expecting count: Int, verdict: VerdictKind
    ) async throws -> Double {
        let answer = try await (instance ?? server).send("POST", "/v1/restore", token: token, body: body, timeout: .seconds(300))
        guard answer.status == 200 else {
            throw BenchError("restore answered \(answer.status): \(String(decoding: answer.body.prefix(500), as: UTF8.self))")
        }
        let response = try answer.decode(SyncResponse.self)
        let matching = response.verdicts.filter { $0.verdict == verdict }.count
        guard response.verdicts.count == count, matching == count else {
            throw BenchError("a restore of \(count) entries got \(matching) \(verdict) verdicts of \(response.verdicts.count)")
        }
        return try answer.serverMilliseconds(of: "restore")
    }
}
