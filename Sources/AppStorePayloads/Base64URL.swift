/// Strict base64url (RFC 4648 §5) without padding, as JWS compact serialisation uses it.
///
/// Foundation's decoder tolerates what a JWS must not contain (padding, the `+/` alphabet,
/// non-zero trailing bits), and two spellings of one value would let a mutated token decode
/// to the same bytes; this decoder accepts exactly one spelling per byte string.
package enum Base64URL {
    /// The 64 characters, in the order of their 6-bit values.
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// The 6-bit value of each ASCII byte, or 0xFF for a byte outside the alphabet.
    private static let decodingTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()

    /// Encodes bytes as unpadded base64url, the one spelling ``decode(_:)`` accepts.
    ///
    /// - Parameter bytes: The bytes.
    /// - Returns: The encoded text.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = (accumulator << 8) | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(alphabet[Int((accumulator >> UInt32(bits)) & 0x3F)])
            }
        }
        if bits > 0 { output.append(alphabet[Int((accumulator << UInt32(6 - bits)) & 0x3F)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes unpadded base64url text.
    ///
    /// - Parameter text: The encoded bytes (ASCII).
    /// - Returns: The decoded bytes, or `nil` when the text is not canonical base64url.
    package static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        // The generic entry only finds contiguous bytes: iterated through a generic collection
        // from another module, each byte cost a witness call, and decoding was most of the
        // cost of verifying a JWS.
        if let decoded = text.withContiguousStorageIfAvailable({ decode(buffer: $0) }) { return decoded }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    private static func decode(buffer text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        return decodingTable.withUnsafeBufferPointer { table in
            var output: [UInt8] = []
            output.reserveCapacity(text.count * 3 / 4)
            var accumulator: UInt32 = 0
            var bits = 0
            for byte in text {
                let value = table[Int(byte)]
                guard value != 0xFF else { return nil }
                accumulator = (accumulator << 6) | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                }
            }
            // Leftover bits must be zero, or two different texts would decode to the same bytes.
            guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
            return output
        }
    }
}
