extension Ledger {
    /// The records of one purchase.
    ///
    /// - Parameter originalTransactionId: The purchase's original transaction id.
    /// - Returns: Its records ordered by transaction id; empty when the ledger has none.
    public func chain(_ originalTransactionId: String) -> [TransactionRecord] {
        records.filter { $0.originalTransactionId.compareUTF8(originalTransactionId) == 0 }
    }

    /// Every purchase, ordered by the UTF-8 bytes of `originalTransactionId`.
    public var chains: [PurchaseChain] {
        let grouping = ChainGrouping(records)
        let chains = (0..<grouping.count).map { number in
            PurchaseChain(
                originalTransactionId: grouping.originalTransactionIds[number],
                records: grouping.members(of: number).map { records[$0] })
        }
        return chains.sorted { $0.originalTransactionId.compareUTF8($1.originalTransactionId) < 0 }
    }
}
