/// The shape of the ids admin routes pass to the App Store Server API, checked before anything
/// is asked: what a path may carry, and no more.
enum AppStoreIds {
    /// An original transaction id: 1 to 64 letters, digits, `.`, `_` or `-` (Apple's are
    /// digits; Xcode and test environments use others).
    static func transactionId(_ value: String, field: String) throws(RequestError) -> String {
        guard (1...64).contains(value.utf8.count),
            value.utf8.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        else {
            throw .invalid(field: field, detail: "\(field) must be 1 to 64 letters, digits, '.', '_' or '-'")
        }
        return value
    }

    /// An order id from an App Store receipt e-mail: 1 to 64 letters and digits (`MK5TTTVWJH`).
    static func orderId(_ value: String) throws(RequestError) -> String {
        guard (1...64).contains(value.utf8.count), value.utf8.allSatisfy(isLetterOrDigit) else {
            throw .invalid(field: "orderId", detail: "orderId must be 1 to 64 letters and digits, as on Apple's receipt e-mail")
        }
        return value
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
