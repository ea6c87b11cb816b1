/// The accounts the lookup runs pick from: `count` accounts spread evenly over all the seeded
/// ones (every `stride`-th), so a larger database is also a larger spread of the pages the
/// lookups touch, as in a deployment whose active users signed up over the years.
struct HotSet: Sendable {
    let count: Int
    let stride: Int

    init(count: Int, of accounts: Int) {
        self.count = min(count, accounts)
        stride = max(1, accounts / max(1, count))
    }

    /// The seed number of the `index`-th account of the set (0-based).
    func accountNumber(_ index: Int) -> Int { 1 + index * stride }

    /// The same as a SQL or pgbench expression of the index.
    func accountNumber(expression index: String) -> String { "(1 + (\(index)) * \(stride))" }
}
