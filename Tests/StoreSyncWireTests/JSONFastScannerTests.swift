@testable import StoreSyncWire
import Testing

/// The scanner's string check reads four blocks of sixteen bytes a round, then single blocks,
/// then bytes one by one; these tests put every byte value at every place of each.
@Suite struct JSONFastScannerTests {
    static func read(_ text: [UInt8]) -> [UInt8]? {
        let json = [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]
        return json.withUnsafeBufferPointer { buffer in
            var scanner = JSONFastScanner(buffer)
            return scanner.stringBytes().map(Array.init)
        }
    }

    @Test(arguments: [1, 7, 15, 16, 17, 63, 64, 65, 80, 95, 129])
    func everyByteAtEveryPlaceIsReadOnlyWhenItIsPlainASCII(length: Int) {
        var misread: [String] = []
        for place in 0..<length {
            for value in 0...255 where value != Int(UInt8(ascii: "\"")) {
                var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                text[place] = UInt8(value)
                let plain = value >= 0x20 && value < 0x80 && value != Int(UInt8(ascii: "\\"))
                let read = Self.read(text)
                if plain ? read != text : read != nil { misread.append("byte \(value) at \(place)") }
            }
        }
        #expect(misread.isEmpty, "\(misread.prefix(10))")
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
