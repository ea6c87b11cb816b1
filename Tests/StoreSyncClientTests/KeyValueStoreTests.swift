import Foundation
@testable import StoreSyncClient
import StoreSyncTesting
import Testing

/// The contract every store keeps, checked on each implementation that runs on Linux.
@Suite struct KeyValueStoreTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case inMemory, file, userDefaults
        var testDescription: String { rawValue }

        /// Runs a body on a fresh store of this kind and removes what it wrote afterwards.
        func withStore(_ body: (any KeyValueStore) throws -> Void) throws {
            switch self {
            case .inMemory:
                try body(InMemoryStore())
            case .file:
                let directory = TestDirectory.make()
                defer { try? FileManager.default.removeItem(at: directory) }
                try body(FileStore(directory: directory))
            case .userDefaults:
                let suite = "storesync.tests.\(UUID().uuidString)"
                let defaults = try #require(UserDefaults(suiteName: suite))
                defer { defaults.removePersistentDomain(forName: suite) }
                try body(UserDefaultsStore(defaults: defaults))
            }
        }
    }

    @Test(arguments: Kind.allCases)
    func storedValueReadsBackAndIsReplacedWhole(kind: Kind) throws {
        try kind.withStore { store in
            #expect(try store.data(forKey: "storesync.anon.ledger") == nil)
            try store.set(Data("first version, longer than the second".utf8), forKey: "storesync.anon.ledger")
            try store.set(Data("second".utf8), forKey: "storesync.anon.ledger")
            #expect(try store.data(forKey: "storesync.anon.ledger") == Data("second".utf8))
            try store.set(Data(), forKey: "storesync.anon.flags")
            #expect(try store.data(forKey: "storesync.anon.flags") == Data(), "empty is a value, not an absence")
        }
    }

    @Test(arguments: Kind.allCases)
    func removingAKeyMakesItAbsentAndRemovingTwiceIsHarmless(kind: Kind) throws {
        try kind.withStore { store in
            try store.set(Data("x".utf8), forKey: "storesync.session")
            try store.set(nil, forKey: "storesync.session")
            try store.set(nil, forKey: "storesync.session")
            #expect(try store.data(forKey: "storesync.session") == nil)
            #expect(try store.keys(withPrefix: "storesync.").isEmpty)
        }
    }

    @Test(arguments: Kind.allCases)
    func keysAreListedByPrefix(kind: Kind) throws {
        try kind.withStore { store in
            for key in ["storesync.acct.a.ledger", "storesync.acct.a.outbox", "storesync.acct.b.ledger", "storesync.anon.ledger"] {
                try store.set(Data(key.utf8), forKey: key)
            }
            #expect(Set(try store.keys(withPrefix: "storesync.acct.a.")) == ["storesync.acct.a.ledger", "storesync.acct.a.outbox"])
            #expect(try store.keys(withPrefix: "storesync.").count == 4)
            #expect(try store.keys(withPrefix: "other.").isEmpty)
        }
    }

    @Test func fileStoreRefusesKeysThatCannotBeFileNames() throws {
        let store = FileStore(directory: TestDirectory.make())
        #expect(throws: FileStoreError.invalidKey("")) { try store.set(Data(), forKey: "") }
        let long = String(repeating: "k", count: 300)
        #expect(throws: FileStoreError.invalidKey(long)) { try store.data(forKey: long) }
    }

    @Test func fileStoreFilesAreReadableByTheOwnerOnly() throws {
        let directory = TestDirectory.make()
        try FileStore(directory: directory).set(Data("token".utf8), forKey: "storesync.session")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("storesync.session").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}
