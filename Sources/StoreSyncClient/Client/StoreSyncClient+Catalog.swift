import Foundation
import StoreSyncAPI
import StoreSyncCore

extension StoreSyncClient {
    /// The products the app sells, from the server, cached for starts without a network.
    ///
    /// Needs no sign-in. The catalog is not signed: it only says which products to show,
    /// never what anyone owns (that comes from signed snapshots), so a cached copy edited on
    /// the device can hide or add a product in the store UI and nothing more.
    ///
    /// - Returns: The server's catalog, now cached; or, when the server cannot be reached (or
    ///   fails, or a captive portal, proxy or firewall answers in its place), the copy cached
    ///   last, with ``StoreCatalog/isCached`` set.
    /// - Throws: Those errors when there is no cached copy to fall back on; something else
    ///   answering is ``StoreSyncClientError/invalidInput(_:)`` with a problem of no StoreSync
    ///   type, described as "the StoreSync server was not reached". Whatever the cache holds,
    ///   ``StoreSyncClientError/invalidInput(_:)`` with a StoreSync problem: the server's own 4xx.
    public func catalog() async throws -> StoreCatalog {
        let response: CatalogResponse
        let body: Data
        do {
            (response, body) = try await api.catalog()
        } catch {
            // A captive portal answering in the server's place is as good as no network here.
            guard error.isRetriable || error.isForeignAnswer, let cached = cachedCatalog else { throw error }
            return cached
        }
        let fetchedAt = now()
        // Failing to cache costs only the next offline start.
        if let encoded = try? Self.encoder.encode(StoredCatalog(fetchedAt: fetchedAt, body: body)) {
            try? cache.set(encoded, forKey: CacheKeys.catalog)
        }
        await flushDueUploads()
        return StoreCatalog(products: response.products, fetchedAt: fetchedAt, isCached: false)
    }

    /// The catalog cached by the last successful ``catalog()``, without asking the server:
    /// what an app shows at a start without a network. `nil` before the first fetch.
    public var cachedCatalog: StoreCatalog? {
        guard let bytes = readBytes(CacheKeys.catalog) else { return nil }
        do {
            let stored = try Self.decoder.decode(StoredCatalog.self, from: bytes)
            let response = try Self.decoder.decode(CatalogResponse.self, from: stored.body)
            return StoreCatalog(products: response.products, fetchedAt: stored.fetchedAt, isCached: true)
        } catch {
            discard(CacheKeys.catalog, problem: "cached catalog discarded: \(error)")
            return nil
        }
    }
}

/// The catalog as cached: the server's body as received, and when.
struct StoredCatalog: Codable, Sendable {
    var fetchedAt: Date
    var body: Data
}
