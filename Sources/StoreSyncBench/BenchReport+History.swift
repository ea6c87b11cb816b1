extension BenchReport {
    /// Uncached lookups of accounts with ever longer histories, and how each decade grows them.
    func historyTable() -> [String] {
        let accounts = results.history.accounts
        guard !accounts.isEmpty else { return [] }
        var rows = [[
            "History (uncached, one at a time)", "versions", "lookups", "server p50 ms", "p99 ms", "client p50 ms",
            "snapshot B", "× p50", "× bytes",
        ]]
        var previous: HistoryBench.Account?
        for account in accounts {
            let p50 = Percentile.of(account.serverMilliseconds, 50)
            let decade = previous.flatMap { isDecade(from: $0, to: account) ? $0 : nil }
            rows.append([
                account.label, grouped(account.records), "\(account.serverMilliseconds.count)", format(p50, 2),
                format(Percentile.of(account.serverMilliseconds, 99), 2), format(Percentile.of(account.clientMilliseconds, 50), 2),
                grouped(account.snapshotBytes), decade.map { ratio(p50, Percentile.of($0.serverMilliseconds, 50)) } ?? "",
                decade.map { ratio(Double(account.snapshotBytes), Double($0.snapshotBytes)) } ?? "",
            ])
            previous = account
        }
        if let tail = results.history.machineTail {
            rows.append([
                "A fixed job (the machine alone)", "", "\(tail.milliseconds.count)", format(Percentile.of(tail.milliseconds, 50), 2),
                format(Percentile.of(tail.milliseconds, 99), 2), "", "", "", "",
            ])
        }
        var notes = ["× p50, × bytes: growth over the account with a tenth of the purchases (linear: 10 ×)"]
        if let tail = results.history.machineTail {
            notes.append(
                "fixed job: SHA-512 of a buffer sized to the 1,000-purchase lookup's p50 (\(format(tail.sizedTo, 2)) ms), "
                    + "in turn with the lookups; its p99 is \(format(tail.stretch, 2)) × its p50 on this machine")
        }
        return aligned(rows) + notes
    }

    func historyTargets() -> [[String]] {
        let accounts = results.history.accounts
        guard !accounts.isEmpty else { return [] }
        var rows: [[String]] = []
        if let thousand = accounts.first(where: \.isTargetAccount) {
            let p50 = Percentile.of(thousand.serverMilliseconds, 50)
            let p99 = Percentile.of(thousand.serverMilliseconds, 99)
            var measured = "p50 \(format(p50, 2)) ms, p99 \(format(p99, 2)) ms, \(grouped(thousand.snapshotBytes)) B"
            if let tail = results.history.machineTail {
                measured += "; a fixed job of that p50 reaches p99 \(format(tail.floorOfP99(atMedian: p50), 2)) ms here"
            }
            rows.append(["Uncached lookup, 1,000 purchases", measured, "p99 ≤ 10 ms", verdict(p99 <= 10)])
        }
        let decades = zip(accounts, accounts.dropFirst()).filter { isDecade(from: $0, to: $1) }
        if !decades.isEmpty {
            let latency = decades.map { Percentile.of($1.serverMilliseconds, 50) / Percentile.of($0.serverMilliseconds, 50) }.max()!
            let bytes = decades.map { Double($1.snapshotBytes) / Double($0.snapshotBytes) }.max()!
            rows.append([
                "Uncached lookup growth per decade of purchases", "at most \(format(latency, 2)) × latency (p50), "
                    + "\(format(bytes, 2)) × snapshot bytes", "≤ 10 × (linear)", verdict(latency <= 10 && bytes <= 10),
            ])
        }
        return rows
    }

    /// Whether `next` holds ten times the purchases of `account` (the renewal chain is no step).
    private func isDecade(from account: HistoryBench.Account, to next: HistoryBench.Account) -> Bool {
        next.records == account.records * 10 && !next.isRenewalChain
    }
}
