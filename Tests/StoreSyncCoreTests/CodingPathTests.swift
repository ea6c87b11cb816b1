import StoreSyncCore
import Testing

@Suite struct CodingPathTests {
    private struct Key: CodingKey {
        let stringValue: String
        let intValue: Int?
        init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
        init(intValue: Int) { (stringValue, self.intValue) = ("Index \(intValue)", intValue) }
        init(_ name: String, intValue: Int) { (stringValue, self.intValue) = (name, intValue) }
    }

    @Test func arrayPositionsAreBracketedAndMembersDotted() {
        let path: [any CodingKey] = [Key(stringValue: "entries"), Key(intValue: 3), Key(stringValue: "purchaseDate")]
        #expect(path.fieldPath(topLevel: "body") == "entries[3].purchaseDate")
        #expect(([Key(intValue: 0), Key(stringValue: "a")] as [any CodingKey]).fieldPath(topLevel: "body") == "[0].a")
        #expect(([Key("7", intValue: 7)] as [any CodingKey]).fieldPath(topLevel: "body") == "[7]")
    }

    @Test func aMemberWhoseKeyHasAnIntegerValueKeepsItsName() {
        let path: [any CodingKey] = [Key(stringValue: "data"), Key("quantity", intValue: 2)]
        #expect(path.fieldPath(topLevel: "body") == "data.quantity")
    }

    @Test func theEmptyPathIsTheDocument() {
        #expect([any CodingKey]().fieldPath(topLevel: "the document") == "the document")
    }
}
