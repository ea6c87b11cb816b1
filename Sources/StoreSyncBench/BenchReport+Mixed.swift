extension BenchReport {
    /// Latency per route under the mixed load, errors, and the rows counted afterwards.
    func mixedSection() -> [String] {
        guard let mixed = results.mixed else { return [] }
        var rows = [[
            "Mixed load, \(mixed.seconds) s (client side)", "per s", "sent", "p50 ms", "p90 ms", "p99 ms", "max ms", "server p99",
            "errors",
        ]]
        rows.append([
            "GET /v1/entitlements, cached, 16 conns (wrk)", format(mixed.lookups.requestsPerSecond, 0), "",
            format(mixed.lookups.p50Milliseconds, 2), "", format(mixed.lookups.p99Milliseconds, 2), "", "",
            "\(mixed.lookups.errors)",
        ])
        for route in mixed.routes {
            rows.append(
                [route.name, format(route.perSecond, 1), "\(route.samples.count)"]
                    + [50, 90, 99, 100].map { format(Percentile.of(route.latencies, $0), 2) }
                    + [format(Percentile.of(route.serverLatencies, 99), 2), "\(route.errors.count)"])
        }
        var lines = aligned(rows)
        lines.append(
            "Rows added: " + mixed.rows.map { "\($0.table) \(grouped($0.counted)) (accepted \(grouped($0.expected)))" }
                .joined(separator: ", ")
                + "; rows holding a sent transaction id \(grouped(mixed.sentIdRows)), distinct ids \(grouped(mixed.sentIdsStored))")
        if let first = mixed.routes.lazy.flatMap(\.errors).first { lines.append("First error: \(first)") }
        lines.append("Each route's requests arrive at random (Poisson) at its mean rate, the same schedule every run;")
        lines.append("server p99: by the server's own clock (Server-Timing), so the rest of the client's p99 is the way there and back")
        lines.append("Sign-ins hash at the bench's bcrypt cost 4; each comes from a client address of its own")
        return lines
    }

    func mixedTargets() -> [[String]] {
        guard let mixed = results.mixed else { return [] }
        var rows = [[
            "Lookups under mixed load, 16 conns", "p99 \(format(mixed.lookups.p99Milliseconds, 2)) ms, "
                + "\(format(mixed.lookups.requestsPerSecond, 0)) req/s", "p99 ≤ 5 ms", verdict(mixed.lookups.p99Milliseconds <= 5),
        ]]
        if let large = mixed.routes.first(where: { $0.name.contains("100 new") }) {
            let p99 = Percentile.of(large.latencies, 99)
            rows.append([
                "Restore of 100 new entries under mixed load", "p99 \(format(p99, 1)) ms (\(large.samples.count) restores)",
                "p99 ≤ 50 ms", verdict(p99 <= 50),
            ])
        }
        let errors = mixed.lookups.errors + mixed.routes.map(\.errors.count).reduce(0, +)
        let exact = mixed.rows.allSatisfy { $0.counted == $0.expected }
        let expectedIds = mixed.rows.first { $0.table == "transactions" }?.expected ?? 0
        let idsExact = mixed.sentIdRows == expectedIds && mixed.sentIdsStored == expectedIds
        rows.append([
            "Mixed load: errors, lost or duplicated rows",
            "\(errors) errors; " + mixed.rows.map { "\($0.table) +\(grouped($0.counted)) of \(grouped($0.expected))" }
                .joined(separator: ", "),
            "0 errors, every row once", verdict(errors == 0 && exact && idsExact),
        ])
        return rows
    }
}
