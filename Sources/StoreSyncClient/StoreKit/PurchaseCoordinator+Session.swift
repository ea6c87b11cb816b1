extension PurchaseCoordinator {
    /// Signs in, then imports StoreKit's current entitlements if this device has not yet for
    /// this account, so purchases the user made before (here, or with this Apple ID
    /// elsewhere) reach the account.
    ///
    /// - Parameters:
    ///   - email: The email.
    ///   - password: The password.
    ///   - deviceName: A name for this device.
    /// - Returns: The session.
    /// - Throws: What ``StoreSyncClient/signIn(email:password:deviceName:)`` throws.
    @discardableResult
    public func signIn(email: String, password: String, deviceName: String? = nil) async throws -> ClientSession {
        let session = try await client.signIn(email: email, password: password, deviceName: deviceName)
        await importEntitlementsIfNeeded()
        return session
    }

    /// Creates an account and signs in to it, then imports StoreKit's current entitlements.
    ///
    /// - Parameters:
    ///   - email: The email.
    ///   - password: The password.
    ///   - deviceName: A name for this device.
    /// - Returns: The session.
    /// - Throws: What ``StoreSyncClient/signUp(email:password:deviceName:)`` throws.
    @discardableResult
    public func signUp(email: String, password: String, deviceName: String? = nil) async throws -> ClientSession {
        let session = try await client.signUp(email: email, password: password, deviceName: deviceName)
        await importEntitlementsIfNeeded()
        return session
    }

    /// Records StoreKit's current entitlements for the signed-in account, once per account
    /// on this device (remembered in the client's cache). A background upload never moves a
    /// purchase from another account; a purchase another account owns stays in the ledger for
    /// a Restore Purchases the user may ask for.
    ///
    /// When a transaction cannot be stored, the import stops and runs again at the next
    /// ``start()`` or sign-in.
    func importEntitlementsIfNeeded() async {
        guard !isImporting, let ticket = await client.sessionAwaitingEntitlementImport() else { return }
        isImporting = true
        defer { isImporting = false }
        for delivery in await source.currentEntitlements() {
            do {
                _ = try await client.record(signedTransaction: delivery.signedTransaction)
            } catch StoreSyncClientError.storage {
                return
            } catch {
                // Refused or owned elsewhere: the server has judged it; the import goes on.
                continue
            }
        }
        try? await client.markEntitlementsImported(for: ticket)
    }
}
