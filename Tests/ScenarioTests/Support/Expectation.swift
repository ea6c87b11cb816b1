import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting

/// What a scenario must end with, stated before it runs: the entitlements each device shows
/// offline and each account gets from the server, the owner of each purchase, the events
/// appended for it, and how many purchases the server knows.
///
/// Devices and accounts are named as in the scenario's sentence ("A", "B"; "X", "Y"). Only
/// what is stated is checked; a device or account left out is not looked at.
struct Expectation {
    /// Device name → its offline ``StoreSyncClient/entitlements(at:)``.
    var devices: [String: [ExpectedEntitlement]] = [:]
    /// Account name → the server's `GET /v1/entitlements` for it.
    var accounts: [String: [ExpectedEntitlement]] = [:]
    /// Original transaction id → the owning account's name (`nil`: nobody owns it).
    var owners: [String: String?] = [:]
    /// Original transaction id → the kinds of its events, oldest first.
    var events: [String: [String]] = [:]
    /// Account name → the purchases (original transaction ids) it holds rows of.
    var holdings: [String: Set<String>] = [:]
    /// Devices deliberately left behind (offline): their snapshot must be older than their
    /// account's version, where every other checked device must be current.
    var behind: Set<String> = []
    /// Rows of `purchase_owners`: the purchases the server knows, whoever holds them.
    var purchases: Int?
}
