#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension String {
    /// Three-way comparison of the UTF-8 bytes: negative, zero or positive.
    ///
    /// Identifiers are ordered and matched by their bytes, never by `<` or `==` on `String`,
    /// which treat canonically equivalent spellings as equal and so could let two devices
    /// disagree about which record a key names. Bytes are the same on every platform. The
    /// comparison reads the strings in place with `memcmp`: copying them would cost a retain
    /// and a release each, which dominated merging large ledgers.
    func compareUTF8(_ other: String) -> Int {
        let inPlace = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in Self.compareBytes(left, right) }
        }
        if let inPlace, let order = inPlace { return order }
        return Array(utf8).withUnsafeBufferPointer { left in
            Array(other.utf8).withUnsafeBufferPointer { right in Self.compareBytes(left, right) }
        }
    }

    private static func compareBytes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let common = Swift.min(left.count, right.count)
        if common > 0, let a = left.baseAddress, let b = right.baseAddress, a != b {
            let order = memcmp(a, b, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
    }
}

/// A dictionary key that hashes and compares a string by its UTF-8 bytes, so grouping agrees
/// with the byte order the ledger sorts by.
struct UTF8Key: Hashable {
    let string: String

    init(_ string: String) { self.string = string }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.string.compareUTF8(rhs.string) == 0 }

    func hash(into hasher: inout Hasher) {
        let hashedInPlace: Void? = string.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashedInPlace == nil {
            Array(string.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}
