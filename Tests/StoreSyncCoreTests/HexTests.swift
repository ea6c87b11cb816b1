import Foundation
import PropertyBased
import StoreSyncCore
import Testing

@Suite struct HexTests {
    @Test func bytesAreWrittenAsLowerCaseHexTwoDigitsEach() {
        #expect([0x00, 0x0F, 0xA0, 0xFF, 0x12].hexString == "000fa0ff12")
        #expect(Data().hexString.isEmpty)
    }

    @Test func hexReadsBackAsTheBytesInEitherCase() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...255).array(of: 0...40)) { values in
            let bytes = Data(values.map(UInt8.init))
            #expect(Data(hexString: bytes.hexString) == bytes)
            #expect(Data(hexString: bytes.hexString.uppercased()) == bytes)
        }
    }

    @Test(arguments: ["0", "abc", "0g", "zz", " 00", "0x00", "é0"])
    func anythingButPairsOfHexDigitsIsRefused(text: String) {
        #expect(Data(hexString: text) == nil)
    }
}
