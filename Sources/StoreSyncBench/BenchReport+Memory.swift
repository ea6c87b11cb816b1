extension BenchReport {
    /// The server's memory, idle and phase by phase.
    func memoryTable() -> [String] {
        guard results.memory.idle > 0 || !results.memory.phases.isEmpty else { return [] }
        var rows = [["Server RSS", "peak", "2 s after"], ["idle after the seed", megabytes(results.memory.idle), ""]]
        for phase in results.memory.phases {
            rows.append([phase.name, megabytes(phase.peak), megabytes(phase.after)])
        }
        return aligned(rows)
    }

    func memoryTargets() -> [[String]] {
        let memory = results.memory
        var rows: [[String]] = []
        let lookups = ["cached lookups", "uncached lookups"].compactMap { memory.phase($0)?.peak }.max()
        if let lookups {
            rows.append([
                "Server RSS under lookup load", "\(megabytes(lookups)) (idle \(megabytes(memory.idle)))", "≤ 150 MB",
                verdict(lookups > 0 && lookups <= 150 * 1_000_000),
            ])
        }
        if let peakPhase = memory.phases.max(by: { $0.peak < $1.peak }) {
            rows.append([
                "Server RSS through the bench", "peak \(megabytes(peakPhase.peak)) (\(peakPhase.name))", "≤ 200 MB",
                verdict(peakPhase.peak <= 200 * 1_000_000),
            ])
        }
        if let restores = memory.phase("restores"), let level = memory.phase("cached lookups")?.peak {
            rows.append([
                "Server RSS after the restores", "\(megabytes(restores.after)) (cached lookups peaked at \(megabytes(level)))",
                "≤ 1.25 × the lookups' level", verdict(Double(restores.after) <= 1.25 * Double(level)),
            ])
        }
        return rows
    }
}
