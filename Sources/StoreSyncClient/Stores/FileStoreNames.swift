import StoreSyncCore

/// Maps store keys to file names and back.
///
/// Letters, digits, `-`, `_` and `.` stay as they are; every other byte becomes `%XX`. A
/// leading `.` is encoded too, so no key's file is hidden, `.` or `..`, and every name that
/// starts with a dot is a temporary file rather than a key.
enum FileStoreNames {
    /// Temporary files start with this; no encoded key does.
    static let temporaryPrefix = ".tmp-"
    /// The longest file name POSIX file systems commonly allow.
    static let maximumLength = 255

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func fileName(forKey key: String) throws(FileStoreError) -> String {
        guard !key.isEmpty else { throw .invalidKey(key) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.utf8.count)
        for (index, byte) in key.utf8.enumerated() {
            if isUnreserved(byte), !(index == 0 && byte == UInt8(ascii: ".")) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        guard bytes.count <= maximumLength else { throw .invalidKey(key) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The key a file name encodes, or `nil` for temporary and foreign files.
    static func key(forFileName name: String) -> String? {
        guard !name.hasPrefix(".") else { return nil }
        var bytes: [UInt8] = []
        var iterator = name.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(UInt8.init(hexDigit:)), let low = iterator.next().flatMap(UInt8.init(hexDigit:)) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                return nil
            }
        }
        let key = String(decoding: bytes, as: UTF8.self)
        // Decoding replaces invalid UTF-8; a name that does not round-trip is not one of ours.
        return Array(key.utf8) == bytes ? key : nil
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}
