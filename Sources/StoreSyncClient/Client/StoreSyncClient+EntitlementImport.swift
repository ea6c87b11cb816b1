import AppStorePayloads
import Foundation
import StoreSyncCore

/// What ``PurchaseCoordinator`` needs from the client beyond its public API: remembering that
/// this device imported StoreKit's current entitlements for an account, and keeping signed
/// transactions in the ledger for a restore to send.
extension StoreSyncClient {
    /// The signed-in session, when this installation has not yet imported StoreKit's current
    /// entitlements for its account; `nil` when it has, or nobody is signed in.
    func sessionAwaitingEntitlementImport() -> SessionTicket? {
        guard let ticket = currentTicket() else { return nil }
        let installations = readList(.imported, in: ticket.partition, as: Readable<UUID>.self)
        return installations.contains(installationId) ? nil : ticket
    }

    /// Remembers that this installation imported the ticket's account's current
    /// entitlements, unless that account has signed out meanwhile.
    func markEntitlementsImported(for ticket: SessionTicket) throws(StoreSyncClientError) {
        guard isCurrent(ticket) else { return }
        let installations = readList(.imported, in: ticket.partition, as: Readable<UUID>.self)
        guard !installations.contains(installationId) else { return }
        try write(installations + [installationId], .imported, in: ticket.partition)
    }

    /// This installation's own id, made at first use and kept in the session store, which
    /// never leaves the device. Unlike the server's device id it survives sign-outs; a session
    /// store that forgets it (memory) makes each launch a new installation.
    var installationId: UUID {
        if let known = installationIdMemo { return known }
        let saved = (try? sessionStore.data(forKey: CacheKeys.installation))
            .flatMap { UUID(uuidString: String(decoding: $0, as: UTF8.self)) }
        let id = saved ?? UUID()
        if saved == nil { try? sessionStore.set(Data(id.uuidString.utf8), forKey: CacheKeys.installation) }
        installationIdMemo = id
        return id
    }

    /// Adds StoreKit 2 transactions to the signed-in account's ledger without uploading
    /// them, so the next restore presents them; text that is not a signed transaction is
    /// skipped (the server would refuse it anyway).
    ///
    /// - Parameter signedTransactions: Compact JWS, as StoreKit hands them out.
    /// - Throws: ``StoreSyncClientError/notSignedIn``; ``StoreSyncClientError/storage(_:)``.
    func keepInLedger(_ signedTransactions: [String]) throws(StoreSyncClientError) {
        let ticket = try requireTicket()
        let records = signedTransactions.compactMap { try? UnverifiedJWS.transaction($0) }
        try merge(records, into: ticket.partition)
    }
}
