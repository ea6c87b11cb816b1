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

    /// Decodes four characters at a time into an array sized once, not a byte at a time into a
    /// growing one: every JWS verified decodes its payload and signature here.
    private static func decode(buffer text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let tail = text.count % 4
        guard tail != 1 else { return nil }
        let quads = text.count / 4
        let count = quads * 3 + (tail == 0 ? 0 : tail - 1)
        var valid = true
        let output = decodingTable.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
                // The 6-bit values of `characters` characters from `at`, as the top bits of 24;
                // `nil` when one is outside the alphabet (its 0xFF has bits no value has).
                func values(_ at: Int, _ characters: Int) -> UInt32? {
                    var bits: UInt32 = 0
                    var outside: UInt8 = 0
                    for offset in 0..<characters {
                        let value = table[Int(text[at + offset])]
                        outside |= value
                        bits = bits << 6 | UInt32(value)
                    }
                    return outside & 0xC0 == 0 ? bits << (6 * UInt32(4 - characters)) : nil
                }
                for quad in 0..<quads {
                    guard let bits = values(quad * 4, 4) else {
                        valid = false
                        return
                    }
                    output[quad * 3] = UInt8(truncatingIfNeeded: bits >> 16)
                    output[quad * 3 + 1] = UInt8(truncatingIfNeeded: bits >> 8)
                    output[quad * 3 + 2] = UInt8(truncatingIfNeeded: bits)
                }
                if tail > 0 {
                    // Two characters carry one byte and four spare bits, three carry two and
                    // two spare: the spare bits must be zero, or two texts would decode to the
                    // same bytes.
                    let spare: UInt32 = tail == 2 ? 0xFFFF : 0xFF
                    guard let bits = values(quads * 4, tail), bits & spare == 0 else {
                        valid = false
                        return
                    }
                    output[quads * 3] = UInt8(truncatingIfNeeded: bits >> 16)
                    if tail == 3 { output[quads * 3 + 1] = UInt8(truncatingIfNeeded: bits >> 8) }
                }
                initialized = count
            }
        }
        return valid ? output : nil
    }
}
