/// A ledger element: kept in arrays sorted by the UTF-8 bytes of its key, one per key.
protocol LedgerKeyed {
    /// The key the ledger sorts and matches by.
    var ledgerKey: String { get }
    /// Positive when the merge keeps `a` over `b`; zero only for identical elements.
    static func mergePrecedence(_ a: Self, _ b: Self) -> Int
}

extension TransactionRecord: LedgerKeyed {
    var ledgerKey: String { transactionId }
}

extension RenewalInfo: LedgerKeyed {
    var ledgerKey: String { originalTransactionId }
}

/// Operations on arrays of ``LedgerKeyed`` elements sorted by key.
///
/// Elements are read through unsafe buffers inside `withUnsafeBufferPointer`, which lends them
/// in place: passing `array[i]` to a comparison would copy the element (a retain per string
/// field), and copies were most of the cost of merging large ledgers. No pointer leaves its
/// closure.
enum SortedByKey {
    /// Where a key is, or where it would be inserted.
    struct Position {
        var index: Int
        var isPresent: Bool
    }

    static func search<Element: LedgerKeyed>(_ elements: [Element], for key: String) -> Position {
        elements.withUnsafeBufferPointer { buffer in
            var low = 0
            var high = buffer.count
            while low < high {
                let middle = low + (high - low) / 2
                let order = buffer[middle].ledgerKey.compareUTF8(key)
                if order == 0 { return Position(index: middle, isPresent: true) }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return Position(index: low, isPresent: false)
        }
    }

    /// Sorts by key and keeps the preferred element of each run of equal keys.
    static func canonicalized<Element: LedgerKeyed>(_ elements: [Element]) -> [Element] {
        guard elements.count > 1 else { return elements }
        var sorted = elements
        sorted.sort { $0.ledgerKey.compareUTF8($1.ledgerKey) < 0 }
        return sorted.withUnsafeBufferPointer { buffer in
            var result: [Element] = []
            result.reserveCapacity(buffer.count)
            var winner = 0
            for index in 1..<buffer.count {
                if buffer[index].ledgerKey.compareUTF8(buffer[winner].ledgerKey) == 0 {
                    if Element.mergePrecedence(buffer[index], buffer[winner]) > 0 { winner = index }
                } else {
                    result.append(buffer[winner])
                    winner = index
                }
            }
            result.append(buffer[winner])
            return result
        }
    }

    /// The union of two sorted arrays; where both hold a key, the preferred element. Only the
    /// winner of each key is copied.
    static func merged<Element: LedgerKeyed>(_ lhs: [Element], _ rhs: [Element]) -> [Element] {
        if rhs.isEmpty { return lhs }
        if lhs.isEmpty { return rhs }
        return lhs.withUnsafeBufferPointer { left in
            rhs.withUnsafeBufferPointer { right in
                var result: [Element] = []
                result.reserveCapacity(left.count + right.count)
                var leftIndex = 0
                var rightIndex = 0
                while leftIndex < left.count, rightIndex < right.count {
                    let order = left[leftIndex].ledgerKey.compareUTF8(right[rightIndex].ledgerKey)
                    if order < 0 {
                        result.append(left[leftIndex])
                        leftIndex += 1
                    } else if order > 0 {
                        result.append(right[rightIndex])
                        rightIndex += 1
                    } else {
                        let rightWins = Element.mergePrecedence(right[rightIndex], left[leftIndex]) > 0
                        result.append(rightWins ? right[rightIndex] : left[leftIndex])
                        leftIndex += 1
                        rightIndex += 1
                    }
                }
                result.append(contentsOf: left[leftIndex...])
                result.append(contentsOf: right[rightIndex...])
                return result
            }
        }
    }
}
