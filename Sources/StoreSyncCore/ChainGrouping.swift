/// A ledger's records grouped by `originalTransactionId` without copying them.
///
/// Chains are numbered in the order their first record appears in the ledger (which is sorted
/// by transaction id), and a chain's record indices ascend, so the grouping is deterministic.
/// It costs one hash lookup per record and a handful of allocations whatever the chain count.
struct ChainGrouping {
    /// The `originalTransactionId` of each chain, by chain number.
    private(set) var originalTransactionIds: [String] = []
    /// Chain `c`'s record indices are `members[offsets[c] ..< offsets[c + 1]]`.
    private var offsets: [Int] = [0]
    private var members: [Int] = []

    init(_ records: [TransactionRecord]) {
        var numbers = [UTF8Key: Int](minimumCapacity: records.count)
        var chainOfRecord: [Int] = []
        chainOfRecord.reserveCapacity(records.count)
        var sizes: [Int] = []
        // Indices, not `for record in records`: iterating would copy every record.
        for index in records.indices {
            // Renewals of one subscription usually sort next to each other: comparing with the
            // previous record is far cheaper than hashing.
            if let previous = chainOfRecord.last,
                records[index].originalTransactionId.compareUTF8(originalTransactionIds[previous]) == 0
            {
                chainOfRecord.append(previous)
                sizes[previous] += 1
                continue
            }
            let key = UTF8Key(records[index].originalTransactionId)
            if let number = numbers[key] {
                chainOfRecord.append(number)
                sizes[number] += 1
            } else {
                let number = originalTransactionIds.count
                numbers[key] = number
                originalTransactionIds.append(key.string)
                sizes.append(1)
                chainOfRecord.append(number)
            }
        }
        offsets = [Int](repeating: 0, count: sizes.count + 1)
        for chain in sizes.indices { offsets[chain + 1] = offsets[chain] + sizes[chain] }
        var cursor = offsets
        members = [Int](repeating: 0, count: records.count)
        for (recordIndex, chain) in chainOfRecord.enumerated() {
            members[cursor[chain]] = recordIndex
            cursor[chain] += 1
        }
    }

    var count: Int { originalTransactionIds.count }

    /// The indices, into the ledger's records, of chain `chain`'s records.
    func members(of chain: Int) -> ArraySlice<Int> { members[offsets[chain]..<offsets[chain + 1]] }
}
