@testable import StoreSyncWire
import Testing

/// The scanner's string check runs eight bytes at a time; these tests put every byte value at
/// every place of a word and of the tail.
@Suite struct JSONFastScannerTests {
    static func read(_ text: [UInt8]) -> [UInt8]? {
        let json = [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]
        return json.withUnsafeBufferPointer { buffer in
            var scanner = JSONFastScanner(buffer)
            return scanner.stringBytes().map(Array.init)
        }
    }

    @Test func everyByteAtEveryPlaceIsReadOnlyWhenItIsPlainASCII() {
        for length in [1, 7, 8, 9, 17] {
            for place in 0..<length {
                for value in 0...255 where value != Int(UInt8(ascii: "\"")) {
                    var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    text[place] = UInt8(value)
                    let plain = value >= 0x20 && value < 0x80 && value != Int(UInt8(ascii: "\\"))
                    #expect((Self.read(text) == text) == plain, "byte \(value) at \(place) of \(length)")
                    #expect(plain || Self.read(text) == nil)
                }
            }
        }
    }

    @Test func aStringEndsAtTheFirstQuoteAndAnEscapedQuoteIsLeftAlone() {
        let json = Array(#""abc" "de\"f""#.utf8)
        json.withUnsafeBufferPointer { buffer in
            var scanner = JSONFastScanner(buffer)
            #expect(scanner.string() == "abc")
            #expect(scanner.string() == nil)
        }
        #expect(Self.read([]) == [])
    }

    @Test func aStringWithoutItsClosingQuoteIsNotRead() {
        let json = Array(#""never closed"#.utf8)
        json.withUnsafeBufferPointer { buffer in
            var scanner = JSONFastScanner(buffer)
            #expect(scanner.stringBytes() == nil)
        }
    }
}
