import Foundation
import PostgresLibPQ
import StoreSyncServer

/// pgbench running the server's own lookup statement (``LookupQuery``), prepared, against the
/// same PostgreSQL the server uses, over the same unix socket: the database's ceiling for
/// this query on this machine.
struct Pgbench {
    let database: PostgresConfiguration
    /// It picks from the hot set wrk picks from.
    let hotSet: HotSet
    let workspace: BenchWorkspace

    /// The script: a random account, then the server's statement for that one account (the
    /// server batches concurrent lookups into one statement; pgbench's ceiling is per lookup).
    /// pgbench variables are numbers, so the id is derived from the number exactly as the seed
    /// derived it (an immutable expression PostgreSQL evaluates once).
    func script() -> String {
        let statement = LookupQuery.sql.replacingOccurrences(of: "$1", with: "ARRAY[\(BenchSeeder.accountId(":n"))]")
        return "\\set n \(hotSet.accountNumber(expression: "random(0, \(hotSet.count - 1))"))\n\(statement);\n"
    }

    /// Runs pgbench with `clients` clients for about `seconds` and reads its per-transaction log
    /// for the latency percentiles.
    ///
    /// The run is bounded by a transaction count, not `--time`: on some virtualised machines
    /// pgbench's duration timer never fires and a timed run does not end.
    func run(clients: Int, seconds: Int) async throws -> LoadResult {
        let transactionsPerClient = max(500, Self.expectedRate * seconds / clients)
        let scriptFile = workspace.file("lookup.pgbench")
        try Data(script().utf8).write(to: scriptFile)
        let logDirectory = workspace.file("pgbench-\(clients)")
        try? FileManager.default.removeItem(at: logDirectory)
        try FileManager.default.createDirectory(at: logDirectory, withIntermediateDirectories: true)
        let output = try await Shell.output(
            "pgbench",
            [
                "--no-vacuum", "--protocol=prepared", "--client=\(clients)", "--jobs=2", "--transactions=\(transactionsPerClient)",
                "--file=\(scriptFile.path)", "--log", "--log-prefix=\(logDirectory.appendingPathComponent("tx").path)",
                "--host=\(database.host ?? "")", "--port=\(database.port)", "--username=\(database.user ?? "postgres")",
                database.database,
            ])
        guard let tps = Self.number(after: "tps = ", in: output) else {
            throw BenchError("pgbench printed no tps:\n\(output)")
        }
        let latencies = try transactionLatencies(in: logDirectory)
        let failed = Self.number(after: "number of failed transactions: ", in: output).map { Int($0) } ?? 0
        return LoadResult(
            requestsPerSecond: tps, p50Milliseconds: Percentile.of(latencies, 50),
            p99Milliseconds: Percentile.of(latencies, 99), errors: failed)
    }

    /// Each log line is `client transaction latency_us script epoch epoch_us`.
    private func transactionLatencies(in directory: URL) throws -> [Double] {
        var latencies: [Double] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.count >= 3, let micros = Double(fields[2]) { latencies.append(micros / 1000) }
            }
        }
        return latencies
    }

    /// Lookups per second this statement reaches on a 2-core machine: sizes the runs.
    private static let expectedRate = 20_000

    private static func number(after marker: String, in text: String) -> Double? {
        guard let range = text.range(of: marker) else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        return Double(digits)
    }
}
