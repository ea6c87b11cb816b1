import Foundation

/// Three-way comparisons of single fields, the building blocks of the merge's total order.
///
/// Each returns a negative number, zero or a positive number; `nil` sorts before any value,
/// so a version that carries a field ranks above one that lacks it.
enum FieldOrder {
    static func compare<Value: Comparable>(_ lhs: Value, _ rhs: Value) -> Int {
        lhs == rhs ? 0 : (lhs < rhs ? -1 : 1)
    }

    static func compare<Value: Comparable>(_ lhs: Value?, _ rhs: Value?) -> Int {
        switch (lhs, rhs) {
        case (nil, nil): 0
        case (nil, _): -1
        case (_, nil): 1
        case let (left?, right?): compare(left, right)
        }
    }

    static func compare(_ lhs: String, _ rhs: String) -> Int { lhs.compareUTF8(rhs) }

    static func compare(_ lhs: String?, _ rhs: String?) -> Int {
        switch (lhs, rhs) {
        case (nil, nil): 0
        case (nil, _): -1
        case (_, nil): 1
        case let (left?, right?): left.compareUTF8(right)
        }
    }

    static func compare(_ lhs: Bool, _ rhs: Bool) -> Int { lhs == rhs ? 0 : (lhs ? 1 : -1) }

    static func compare(_ lhs: UUID?, _ rhs: UUID?) -> Int {
        switch (lhs, rhs) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case let (left?, right?):
            return withUnsafeBytes(of: left.uuid) { a in
                withUnsafeBytes(of: right.uuid) { b in
                    for index in 0..<16 where a[index] != b[index] {
                        return a[index] < b[index] ? -1 : 1
                    }
                    return 0
                }
            }
        }
    }
}
