extension Ledger {
    /// Merges one transaction version.
    ///
    /// - Parameter record: The arriving version.
    /// - Returns: Whether it was inserted, replaced the held version, or lost to it.
    @discardableResult
    public mutating func merge(_ record: TransactionRecord) -> MergeOutcome {
        let found = SortedByKey.search(records, for: record.transactionId)
        guard found.isPresent else {
            records.insert(record, at: found.index)
            return .inserted
        }
        guard TransactionRecord.isPreferred(record, over: records[found.index]) else { return .unchanged }
        records[found.index] = record
        return .replaced
    }

    /// Merges one renewal info version.
    ///
    /// - Parameter info: The arriving version.
    /// - Returns: Whether it was inserted, replaced the held version, or lost to it.
    @discardableResult
    public mutating func merge(_ info: RenewalInfo) -> MergeOutcome {
        let found = SortedByKey.search(renewalInfos, for: info.originalTransactionId)
        guard found.isPresent else {
            renewalInfos.insert(info, at: found.index)
            return .inserted
        }
        guard RenewalInfo.isPreferred(info, over: renewalInfos[found.index]) else { return .unchanged }
        renewalInfos[found.index] = info
        return .replaced
    }

    /// Merges several transaction versions at once, in one pass rather than one insertion each.
    ///
    /// - Parameter records: The arriving versions, in any order.
    public mutating func merge(_ records: some Sequence<TransactionRecord>) {
        merge(Ledger(records: records))
    }

    /// Merges another ledger into this one: for every key, the preferred of the two versions.
    ///
    /// - Parameter other: The other device's or the server's ledger.
    public mutating func merge(_ other: Ledger) {
        records = SortedByKey.merged(records, other.records)
        renewalInfos = SortedByKey.merged(renewalInfos, other.renewalInfos)
    }

    /// The merge of this ledger and another, leaving both unchanged.
    ///
    /// - Parameter other: The other ledger.
    /// - Returns: The ledger holding, for every key, the preferred version of the two.
    public func merging(_ other: Ledger) -> Ledger {
        var copy = self
        copy.merge(other)
        return copy
    }
}
