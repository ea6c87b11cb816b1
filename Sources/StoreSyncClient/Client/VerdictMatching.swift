import StoreSyncAPI
import StoreSyncCore

/// Pairs a restore's verdicts with what was sent: the server answers one verdict per entry in
/// request order, then one per legacy flag in product id order. A confirmed flag's verdict
/// names the purchase that confirms it, so matching is by position when every flag's verdict
/// names its product; ids are the fallback for a server that answers otherwise (one that drops
/// flags for products its catalog lacks under a single verdict naming none).
struct VerdictMatching {
    /// One verdict (or none) per sent record, in the same order.
    let entryVerdicts: [Verdict?]
    let confirmedFlags: [String]
    let droppedFlags: [String]

    init(verdicts: [Verdict], records: [TransactionRecord], flags: [String]) {
        let flagVerdicts: [(String, Verdict?)]
        if verdicts.count == records.count + flags.count,
            zip(flags, verdicts.dropFirst(records.count)).allSatisfy({ $0 == $1.productId })
        {
            entryVerdicts = verdicts.prefix(records.count).map { Optional($0) }
            flagVerdicts = Array(zip(flags, verdicts.dropFirst(records.count).map { Optional($0) }))
        } else {
            entryVerdicts = records.map { record in
                verdicts.first { !$0.isLegacyFlag && $0.transactionId == record.transactionId }
            }
            flagVerdicts = flags.map { flag in
                (flag, verdicts.last { $0.productId == flag && ($0.isLegacyFlag || $0.verdict == .known) })
            }
        }
        confirmedFlags = flagVerdicts.filter { $0.1?.verdict == .known }.map(\.0)
        // A flag without a verdict is dropped as well: it was presented, and nothing backed it.
        droppedFlags = flagVerdicts.filter { $0.1?.verdict != .known }.map(\.0)
    }
}
