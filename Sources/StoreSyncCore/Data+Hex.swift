package import Foundation

extension Sequence<UInt8> {
    /// The bytes as lower-case hex, two digits each: how StoreSync prints digests and
    /// fingerprints, and how PostgreSQL's `encode(…, 'hex')` writes them.
    package var hexString: String {
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Data {
    /// Bytes from lower- or upper-case hex.
    ///
    /// - Parameter hexString: Two hex digits per byte, nothing else.
    /// - Returns: `nil` for an odd number of digits or anything but hex digits.
    package init?(hexString: String) {
        let digits = Array(hexString.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = UInt8(hexDigit: digits[index]), let low = UInt8(hexDigit: digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.init(bytes)
    }
}

extension UInt8 {
    /// The value of one hex digit, lower- or upper-case; `nil` for any other byte.
    ///
    /// - Parameter digit: An ASCII byte.
    package init?(hexDigit digit: UInt8) {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self = digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self = digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self = digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)
