import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncTesting

/// Lookups at 16 connections (wrk) while the bench process sends restores of 10 and of 100 new
/// entries, App Store Server Notifications (`DID_RENEW` of the hot set's subscriptions) and
/// sign-ins, each kind at a steady mean rate with random arrivals
/// (``SteadyRate/poissonArrivals(count:perSecond:seed:)``); then counts the rows the writes left
/// against what the server accepted.
struct MixedLoad {
    let server: BenchServer
    let workspace: BenchWorkspace
    let hotSet: HotSet
    let seconds: Int

    /// Requests per second of each kind the bench process sends.
    static let restoresOf10PerSecond = 4.0
    static let restoresOf100PerSecond = 2.0
    static let notificationsPerSecond = 10.0
    /// Each from a client address of its own (``BenchClients``): the server limits sign-ins per
    /// address.
    static let signInsPerSecond = 1.0

    /// One kind of request sent during the run.
    struct Route: Sendable {
        let name: String
        let perSecond: Double
        let samples: [SteadyRate.Sample]

        var latencies: [Double] { samples.map(\.milliseconds) }
        /// The server's own times of the requests it answered.
        var serverLatencies: [Double] { samples.compactMap(\.serverMilliseconds) }
        var errors: [String] { samples.compactMap(\.error) }
        var accepted: Int { samples.map(\.accepted).reduce(0, +) }
    }

    /// A table's rows added during the run against those the accepted requests should have added.
    struct RowCount: Sendable {
        let table: String
        let expected: Int
        let counted: Int
    }

    struct Result: Sendable {
        let seconds: Int
        let lookups: LoadResult
        let routes: [Route]
        let rows: [RowCount]
        /// Rows of `transactions` holding an id the run sent, and how many distinct ids they hold.
        let sentIdRows: Int
        let sentIdsStored: Int
    }

    /// Sends `requests` (from ``prepare()``) beside the lookups and counts the rows after.
    func run(_ requests: Requests) async throws -> Result {
        let before = try await rowCounts()
        let wrk = Wrk(baseURL: server.baseURL, workspace: workspace)
        async let lookups = wrk.run(.deviceEntitlements(accounts: hotSet.count), connections: 16, seconds: seconds)
        async let small = send(requests.restoresOf10, name: "POST /v1/restore, 10 new entries", Self.restoresOf10PerSecond, seed: 1)
        async let large = send(
            requests.restoresOf100, name: "POST /v1/restore, 100 new entries", Self.restoresOf100PerSecond, seed: 2)
        async let notifications = send(
            requests.notifications, name: "POST /v1/notifications/appstore (DID_RENEW)", Self.notificationsPerSecond, seed: 3)
        async let signIns = send(requests.signIns, name: "POST /v1/sessions", Self.signInsPerSecond, seed: 4)
        let routes = await [small, large, notifications, signIns]
        let lookupResult = try await lookups

        let after = try await rowCounts()
        let restored = routes[0].accepted + routes[1].accepted
        let expected = ["transactions": restored + routes[2].accepted, "notifications": routes[2].accepted, "sessions": routes[3].accepted]
        let (sentIdRows, sentIdsStored) = try await storedRows(of: requests.transactionIds)
        return Result(
            seconds: seconds, lookups: lookupResult, routes: routes,
            rows: expected.keys.sorted().map { RowCount(table: $0, expected: expected[$0]!, counted: after[$0]! - before[$0]!) },
            sentIdRows: sentIdRows, sentIdsStored: sentIdsStored)
    }

    /// Sends `requests` as Poisson arrivals at `rate`, on a schedule that `seed` fixes.
    private func send(_ requests: [Request], name: String, _ rate: Double, seed: UInt64) async -> Route {
        let process = server.process
        let arrivals = SteadyRate.poissonArrivals(count: requests.count, perSecond: rate, seed: seed)
        let samples = await SteadyRate.run(arrivals: arrivals) { index in
            await SteadyRate.timed { try await requests[index].send(to: process) }
        }
        return Route(name: name, perSecond: rate, samples: samples)
    }

    private func rowCounts() async throws -> [String: Int] {
        try await BenchDatabase.withConnection(to: server.database) { connection in
            var counts: [String: Int] = [:]
            for table in ["transactions", "notifications", "sessions"] {
                counts[table] = try await BenchDatabase.number("SELECT count(*) FROM \(table)", on: connection)
            }
            return counts
        }
    }

    private func storedRows(of transactionIds: [String]) async throws -> (rows: Int, distinct: Int) {
        try await BenchDatabase.withConnection(to: server.database) { connection in
            let row = try await connection.query(
                "SELECT count(*), count(DISTINCT transaction_id) FROM transactions WHERE transaction_id = ANY(\(transactionIds))"
            ).first
            guard let (rows, distinct) = try row?.decode((Int64, Int64).self) else { return (0, 0) }
            return (Int(rows), Int(distinct))
        }
    }
}
