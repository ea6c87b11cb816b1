public import Foundation

extension StoreSyncClient {
    /// Imports the cache shape apps used before StoreSync — one `Bool` per product id — as
    /// claims to settle at the first restore.
    ///
    /// A flag is only the device's word (trivially set on a jailbroken device): it grants
    /// nothing. The next restore presents it; the server confirms it when the account holds a
    /// verified purchase of that product, and it is dropped otherwise. Flags imported while
    /// signed out are offered to the account at sign-in.
    ///
    /// - Parameter flags: Product id → owned; `false` entries are ignored.
    /// - Returns: How many product ids were added.
    /// - Throws: ``StoreSyncClientError/storage(_:)`` when the store fails.
    @discardableResult
    public func importLegacyFlags(_ flags: [String: Bool]) throws -> Int {
        let partition = currentTicket()?.partition ?? .anonymous
        let existing = legacyFlags(in: partition)
        let added = Set(flags.filter { $0.value && !$0.key.isEmpty }.keys).subtracting(existing)
        try saveLegacyFlags(existing + added, in: partition)
        return added.count
    }

    /// Imports legacy flags from `UserDefaults`: one `bool(forKey:)` per product id.
    ///
    /// - Parameters:
    ///   - defaults: Where the app kept its flags.
    ///   - productIds: The product ids the app used as keys.
    ///   - removingImported: Remove the imported keys from `defaults` once they are stored
    ///     here, so the forgeable flags stop existing; `true` by default.
    /// - Returns: How many product ids were added.
    /// - Throws: ``StoreSyncClientError/storage(_:)`` when the store fails; `defaults` is then
    ///   left unchanged.
    @discardableResult
    nonisolated(nonsending) public func importLegacyFlags(
        from defaults: UserDefaults, productIds: [String], removingImported: Bool = true
    ) async throws -> Int {
        // `UserDefaults` is not `Sendable` everywhere: it is read and edited on the caller's
        // executor, and only the product ids cross into the actor.
        let owned = productIds.filter { defaults.bool(forKey: $0) }
        let added = try await importLegacyFlags(Dictionary(owned.map { ($0, true) }, uniquingKeysWith: { first, _ in first }))
        if removingImported {
            for productId in owned { defaults.removeObject(forKey: productId) }
        }
        return added
    }
}
