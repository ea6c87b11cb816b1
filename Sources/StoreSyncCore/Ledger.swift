/// An account's transactions, one preferred version per `transactionId`, and the latest
/// renewal info per subscription chain.
///
/// The ledger is a join-semilattice: ``merge(_:)-(Ledger)`` keeps, for every key, the version
/// ``TransactionRecord/preferred(_:_:)`` picks, so any devices and the server converge to the
/// same ledger whatever order they exchange versions in. Keys are matched and ordered by
/// their UTF-8 bytes. Storage is two sorted arrays: merging two ledgers is one linear pass,
/// and a lookup is a binary search.
public struct Ledger: Sendable, Hashable {
    /// Every transaction's preferred version, ordered by the UTF-8 bytes of `transactionId`.
    public internal(set) var records: [TransactionRecord]
    /// The preferred renewal info of each chain, ordered by the UTF-8 bytes of
    /// `originalTransactionId`.
    public internal(set) var renewalInfos: [RenewalInfo]

    /// Creates an empty ledger.
    public init() {
        records = []
        renewalInfos = []
    }

    /// Creates a ledger holding the preferred version of each key among the given ones.
    ///
    /// - Parameters:
    ///   - records: Transaction versions in any order, duplicates and conflicts allowed.
    ///   - renewalInfos: Renewal info versions in any order.
    public init(
        records: some Sequence<TransactionRecord>,
        renewalInfos: some Sequence<RenewalInfo> = [RenewalInfo]()
    ) {
        self.records = SortedByKey.canonicalized(Array(records))
        self.renewalInfos = SortedByKey.canonicalized(Array(renewalInfos))
    }

    /// The number of transactions.
    public var count: Int { records.count }

    /// Whether the ledger holds no transaction and no renewal info.
    public var isEmpty: Bool { records.isEmpty && renewalInfos.isEmpty }

    /// The held version of one transaction.
    ///
    /// - Parameter transactionId: Apple's transaction id.
    public subscript(transactionId: String) -> TransactionRecord? {
        let found = SortedByKey.search(records, for: transactionId)
        return found.isPresent ? records[found.index] : nil
    }

    /// The held renewal info of one subscription chain.
    ///
    /// - Parameter originalTransactionId: The chain's original transaction id.
    /// - Returns: The renewal info, or `nil` when the ledger has none for that chain.
    public func renewalInfo(for originalTransactionId: String) -> RenewalInfo? {
        let found = SortedByKey.search(renewalInfos, for: originalTransactionId)
        return found.isPresent ? renewalInfos[found.index] : nil
    }

    /// Removes one transaction, e.g. a cached entry the server rejected.
    ///
    /// - Parameter transactionId: Apple's transaction id.
    /// - Returns: The removed version, or `nil` when the ledger did not hold it.
    @discardableResult
    public mutating func remove(transactionId: String) -> TransactionRecord? {
        let found = SortedByKey.search(records, for: transactionId)
        return found.isPresent ? records.remove(at: found.index) : nil
    }
}
