@testable import StoreSyncClient
import Testing

@Suite struct FileStoreNamesTests {
    @Test(arguments: ["storesync.acct.0f3c.ledger", "storesync.session", "a/b c%d", "..", ".hidden", "ünïcødé", "x"])
    func keysRoundTripThroughFileNames(key: String) throws {
        let name = try FileStoreNames.fileName(forKey: key)
        #expect(!name.hasPrefix("."))
        #expect(!name.contains("/"))
        #expect(FileStoreNames.key(forFileName: name) == key)
    }
}
