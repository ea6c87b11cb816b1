import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting

/// The stress test's record of the truth: every version Apple signed, per purchase, and who
/// owns each purchase according to the verdicts the server gave, replayed in the order they
/// were received. Ownership only changes by a claim at purchase time or a user-initiated
/// restore, and those run one at a time (``StressTests``), so this order is the server's.
actor StressModel {
    struct Chain {
        let appleId: Int
        let productType: ProductType
        /// Every version Apple signed for the purchase, in signing order.
        var versions: [TestPurchase]
    }

    private(set) var chains: [String: Chain] = [:]
    /// Original transaction id → owning account, as the verdicts say.
    private(set) var owners: [String: UUID] = [:]
    private(set) var counts: [String: Int] = [:]
    /// Verdicts or outcomes that contradict the model: each one is a failure.
    private(set) var contradictions: [String] = []

    func count(_ what: String, by amount: Int = 1) {
        counts[what, default: 0] += amount
    }

    func contradiction(_ text: String) {
        contradictions.append(text)
    }

    func register(_ purchase: TestPurchase, appleId: Int) {
        let id = purchase.record.originalTransactionId
        if chains[id] == nil {
            chains[id] = Chain(appleId: appleId, productType: purchase.record.productType, versions: [])
        }
        chains[id]?.versions.append(purchase)
    }

    func own(_ originalTransactionId: String, by account: UUID) {
        owners[originalTransactionId] = account
    }

    func owner(of originalTransactionId: String) -> UUID? {
        owners[originalTransactionId]
    }

    /// A random version Apple signed for one of an Apple ID's purchases (what StoreKit
    /// re-delivers to that Apple ID's devices).
    ///
    /// - Parameter pick: A random number choosing the version (generators stay with their workers).
    func randomVersion(appleId: Int, pick: UInt64) -> TestPurchase? {
        let candidates = chains.sorted { $0.key < $1.key }.filter { $0.value.appleId == appleId }.flatMap(\.value.versions)
        return candidates.isEmpty ? nil : candidates[Int(pick % UInt64(candidates.count))]
    }

    /// The newest version Apple signed of a random purchase, with the purchase's type.
    func randomLatest(pick: UInt64) -> (latest: TestPurchase, type: ProductType)? {
        let sorted = chains.sorted { $0.key < $1.key }
        guard !sorted.isEmpty, let latest = sorted[Int(pick % UInt64(sorted.count))].value.versions.last else { return nil }
        return (latest, sorted[Int(pick % UInt64(sorted.count))].value.productType)
    }

    /// The account's ledger replayed through StoreSyncCore: every version of every purchase
    /// it owns, merged.
    func ledger(of account: UUID) -> Ledger {
        Ledger(records: owners.filter { $0.value == account }.keys.flatMap { chains[$0]?.versions.map(\.record) ?? [] })
    }

    func purchases(of account: UUID) -> Set<String> {
        Set(owners.filter { $0.value == account }.keys)
    }
}
