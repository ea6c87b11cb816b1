import AppStorePayloads
import Foundation
import Testing

/// Base64url as a JWS spells it: one spelling per byte string, and nothing else decodes.
@Suite struct Base64URLTests {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Bytes of every length up to 70 (every tail, several whole quads) decode to themselves,
    /// and are spelled as Foundation spells base64 with the URL alphabet and no padding.
    @Test func everyLengthRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")

            #expect(encoded == foundation)
            #expect(Base64URL.decode(Array(encoded.utf8)) == bytes, "length \(length)")
        }
    }

    /// A byte outside the alphabet is refused wherever it stands: in a whole quad or in a tail
    /// of two or three characters, first or last.
    @Test(arguments: ["QUJD", "QUJDRA", "QUJDREU", "QUI", "QQ"])
    func aByteOutsideTheAlphabetIsRefusedAnywhere(valid: String) {
        let text = Array(valid.utf8)
        #expect(Base64URL.decode(text) != nil)
        for position in text.indices {
            for byte in UInt8.min...UInt8.max where !Self.alphabet.contains(byte) {
                var mangled = text
                mangled[position] = byte
                #expect(Base64URL.decode(mangled) == nil, "\(byte) at \(position) of \(valid)")
            }
        }
    }

    /// Of all two- and three-character tails, exactly those whose spare bits are zero decode,
    /// and each decodes to bytes that are spelled the same again: no second spelling.
    @Test func onlyTheCanonicalTailsDecode() {
        var decoded = 0
        for first in Self.alphabet {
            for second in Self.alphabet {
                decoded += Self.checkCanonical([UInt8(ascii: "Q"), UInt8(ascii: "U"), UInt8(ascii: "J"), UInt8(ascii: "D"), first, second])
                decoded += Self.checkCanonical([UInt8(ascii: "Q"), first, second])
            }
        }
        // A two-character tail carries one byte (256 of 4,096 spellings); a three-character
        // tail whose first character is fixed carries 16 of each 64 × 64 (its spare two bits).
        #expect(decoded == 256 + 64 * 16)
    }

    @Test(arguments: ["Q", "QUJDR", "QQ==", "QUI=", "+/8A", "QUJD\n", " QUJD", "QU JD"])
    func nonCanonicalFormsAreRefused(text: String) {
        #expect(Base64URL.decode(Array(text.utf8)) == nil)
    }

    /// 1 when `text` decodes and its bytes encode back to it, 0 when it is refused; records an
    /// issue when it decodes to bytes spelled otherwise.
    private static func checkCanonical(_ text: [UInt8]) -> Int {
        guard let bytes = Base64URL.decode(text) else { return 0 }
        #expect(Array(Base64URL.encode(bytes).utf8) == text)
        return 1
    }
}
