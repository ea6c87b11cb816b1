import Foundation
import Logging
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// The catalog file is loaded by every server at start. It applies what changed in it since it
/// was last loaded, so a definition the admin route made (answered 200) is not undone by the
/// next restart of any instance; and a file that defines a product twice is refused.
@Suite struct CatalogFileTests {
    private static let id = "com.example.storesync.premium"

    private static func file(_ products: [CatalogProduct]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString).json")
        try StoreSyncJSON.makeEncoder().encode(CatalogResponse(products: products)).write(to: url)
        return url
    }

    private static func premium(_ entitlements: [String]) -> CatalogProduct {
        CatalogProduct(productId: id, type: .nonConsumable, entitlements: entitlements)
    }

    @Test func anAdminDefinitionStandsAcrossRestartsUntilTheFileChangesThatProduct() async throws {
        let pool = ConnectionPool(configuration: try await TestDatabase.makeDatabase(), size: 2, logger: TestCluster.logger)
        defer { Task { await pool.shutdown() } }
        let (logger, log) = CapturingLogHandler.logger()
        let original = try Self.file([Self.premium(["premium"])])
        defer { try? FileManager.default.removeItem(at: original) }

        let first = CatalogService(pool: pool, logger: logger)
        try await first.loadFile(at: original.path)
        #expect(first.current[Self.id]?.entitlements == ["premium"])

        // During an incident the admin route changes what the product grants.
        try await first.define(Self.premium(["premium", "extras"]))

        // Any instance restarts with the same file: the admin's definition stands, and is told.
        let restarted = CatalogService(pool: pool, logger: logger)
        try await restarted.loadFile(at: original.path)
        #expect(restarted.current[Self.id]?.entitlements == ["premium", "extras"])
        #expect(log.all.contains { $0.level == .notice && $0.message.contains("keeps the definition the admin route gave it")
            && $0.metadata["storesync.product"] == "\(Self.id)" })

        // The file's definition of it changes: that change is applied, and told.
        let changed = try Self.file([Self.premium(["premium", "themes"])])
        defer { try? FileManager.default.removeItem(at: changed) }
        let deployed = CatalogService(pool: pool, logger: logger)
        try await deployed.loadFile(at: changed.path)
        #expect(deployed.current[Self.id]?.entitlements == ["premium", "themes"])
        #expect(log.all.contains { $0.level == .notice && $0.message.contains("replaces the stored one")
            && $0.metadata["storesync.product"] == "\(Self.id)" })

        // Loading the same file again changes nothing and says nothing more.
        let notices = log.all.filter { $0.level == .notice }.count
        try await CatalogService(pool: pool, logger: logger).loadFile(at: changed.path)
        #expect(log.all.filter { $0.level == .notice }.count == notices)
        let stored = try await pool.withConnection { connection in
            try await ProductRepository().all(on: connection)
        }
        #expect(stored.map(\.entitlements) == [["premium", "themes"]])
    }

    @Test func aFileThatDefinesAProductTwiceIsRefusedNamingIt() throws {
        let twice = try Self.file([Self.premium(["premium"]), CatalogProduct(productId: Self.id, type: .autoRenewable, entitlements: ["pro"])])
        defer { try? FileManager.default.removeItem(at: twice) }
        #expect(throws: ConfigurationError.invalid(.catalog, "product \(Self.id) is defined twice")) {
            _ = try CatalogService.products(inFile: twice.path)
        }
    }
}
