extension String {
    /// Three-way comparison of the UTF-8 bytes: negative, zero or positive.
    ///
    /// Identifiers are ordered and matched by their bytes, never by `<` or `==` on `String`,
    /// which treat canonically equivalent spellings as equal and so could let two devices
    /// disagree about which record a key names. Bytes are the same on every platform.
    func compareUTF8(_ other: String) -> Int {
        var lhs = self
        var rhs = other
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = Swift.min(left.count, right.count)
                var index = 0
                while index < common {
                    let a = left[index]
                    let b = right[index]
                    if a != b { return a < b ? -1 : 1 }
                    index += 1
                }
                return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
            }
        }
    }
}

/// A dictionary key that hashes and compares a string by its UTF-8 bytes, so grouping agrees
/// with the byte order the ledger sorts by.
struct UTF8Key: Hashable {
    let string: String

    init(_ string: String) { self.string = string }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.string.compareUTF8(rhs.string) == 0 }

    func hash(into hasher: inout Hasher) {
        var copy = string
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
