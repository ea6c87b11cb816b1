import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting

/// Times `POST /v1/restore` by the server's own clock (`Server-Timing`), for restores of
/// several sizes, each by a new account with transactions the server has never seen (every
/// JWS verified), then the same request again (every entry already known), and once more on
/// another instance, which has not seen these JWS itself (as behind a load balancer, or after
/// a restart).
struct RestoreBench {
    let server: ServerProcess
    /// A second instance on the same database.
    let elsewhere: ServerProcess
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
    }

    /// Repetitions per size: enough for a p50 and a p99 without running for minutes.
    static func repetitions(for entries: Int) -> Int {
        switch entries {
        case ..<100: 40
        case ..<1_000: 20
        case ..<10_000: 10
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
            for _ in 0..<Self.repetitions(for: size) {
                let token = try await signUp()
                let body = try StoreSyncJSON.makeEncoder().encode(
                    RestoreRequest(entries: makeEntries(count: size, firstId: nextId), userInitiated: true))
                nextId += Int64(size)
                fresh.append(try await restore(body, token: token, expecting: size, verdict: .accepted))
                repeated.append(try await restore(body, token: token, expecting: size, verdict: .known))
                elsewhere.append(try await restore(body, on: self.elsewhere, token: token, expecting: size, verdict: .known))
            }
            timings.append(Timing(entries: size, fresh: fresh, repeated: repeated, elsewhere: elsewhere))
        }
        return timings
    }

    /// Signed purchases in the seed's mix, none refunded.
    private func makeEntries(count: Int, firstId: Int64) -> [TransactionRecord] {
        let now = Date()
        let products = [
            TestCatalog.lifetime, TestCatalog.monthly, TestCatalog.monthly, TestCatalog.seasonPass, TestCatalog.coins,
        ]
        return (0..<count).map { index in
            let id = String(firstId + Int64(index))
            let product = products[index % products.count]
            let type = TestCatalog.products.first { $0.productId == product }!.type
            let purchased = now.addingTimeInterval(-Double(index % 90) * 86_400)
            var record = TransactionRecord(
                transactionId: id, originalTransactionId: id, productId: product, productType: type,
                purchaseDate: purchased, originalPurchaseDate: purchased,
                expiresDate: type == .autoRenewable ? purchased.addingTimeInterval(30 * 86_400) : nil,
                environment: .sandbox, signedDate: purchased,
                subscriptionGroupId: type == .autoRenewable ? TestCatalog.subscriptionGroup : nil, evidence: .jws)
            record.signedTransaction = workspace.signer.signTransaction(record)
            return record
        }
    }

    private func signUp() async throws -> String {
        let credentials = Credentials(
            email: "restore-\(UUID().uuidString.prefix(12).lowercased())@example.com", password: "bench password 1234")
        let response = try await server.send("POST", "/v1/accounts", json: credentials)
        guard response.status == 201 else {
            throw BenchError("sign-up answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return try response.decode(SessionResponse.self).token
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
        guard let timing = answer.header("Server-Timing"), let milliseconds = Double(timing.split(separator: "=").last ?? "")
        else { throw BenchError("the restore answer has no Server-Timing header") }
        return milliseconds
    }
}
