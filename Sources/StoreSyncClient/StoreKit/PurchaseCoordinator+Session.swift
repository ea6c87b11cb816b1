public import StoreSyncAPI

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

    /// Signs in with a session the app's own backend minted for its user (bring your own
    /// identity, `POST /v1/admin/users/{externalUserId}/sessions`), then imports StoreKit's
    /// current entitlements if this device has not yet for that account, as
    /// ``signIn(email:password:deviceName:)`` does. An app with its own accounts calls this
    /// rather than ``StoreSyncClient/adoptSession(_:)``, so the purchases its user made before
    /// reach the account at once, not at the next launch.
    ///
    /// When an import for an account signed in before is still running, this call asks for one
    /// more pass and waits for it: the adopted account is imported right after.
    ///
    /// - Parameter minted: The session, as the backend's admin call answered it.
    /// - Returns: The session (without an email).
    /// - Throws: What ``StoreSyncClient/adoptSession(_:)`` throws.
    @discardableResult
    public func adoptSession(_ minted: SessionResponse) async throws -> ClientSession {
        let session = try await client.adoptSession(minted)
        await importEntitlementsIfNeeded()
        return session
    }

    /// Records StoreKit's current entitlements for the signed-in account, once per account
    /// on this device (remembered in the client's cache). A background upload never moves a
    /// purchase from another account; a purchase another account owns stays in the ledger for
    /// a Restore Purchases the user may ask for.
    ///
    /// When a transaction cannot be stored, the import stops and runs again at the next
    /// ``start()``, sign-in or adopted session.
    ///
    /// One import runs at a time. A call that arrives while one runs asks for one more pass
    /// and waits for it: the running one may have found nobody signed in, or an account
    /// signed out since. The pass then finds the signed-in account imported, or imports it.
    func importEntitlementsIfNeeded() async {
        if let running = runningImport {
            importRequestedDuringRun = true
            return await running.value
        }
        let run = Task { await self.runImportPasses() }
        runningImport = run
        await run.value
    }

    private func runImportPasses() async {
        repeat {
            importRequestedDuringRun = false
            await importPass()
        } while importRequestedDuringRun
        runningImport = nil
    }

    private func importPass() async {
        guard let ticket = await client.sessionAwaitingEntitlementImport() else { return }
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
