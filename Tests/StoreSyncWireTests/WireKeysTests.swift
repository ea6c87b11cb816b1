import AppStorePayloads
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncWire
import Testing

/// The names the fast readers match and the writers write are the payloads' own coding keys.
@Suite struct WireKeysTests {
    /// Checks one key type: every name found as itself, the members spelled as JSON writes
    /// them, the canonical order sorted by bytes, and near misses found as nothing.
    static func check<Key: CodingKey & CaseIterable & Equatable>(_ keys: WireKeys<Key>) {
        let declared = Array(Key.allCases)
        for (index, key) in declared.enumerated() {
            let found = Array(key.stringValue.utf8).withUnsafeBufferPointer { keys.key(named: $0) }
            #expect(found?.key == key && found?.index == index, "\(key.stringValue)")
            #expect(Array(keys.member(index)) == Array("\"\(key.stringValue)\":".utf8))
            for nearMiss in [String(key.stringValue.dropLast()), key.stringValue + "s", key.stringValue.uppercased()] {
                let missed = Array(nearMiss.utf8).withUnsafeBufferPointer { keys.key(named: $0) }
                #expect(missed == nil || missed?.key.stringValue == nearMiss, "\(nearMiss)")
            }
        }
        #expect(([] as [UInt8]).withUnsafeBufferPointer { keys.key(named: $0) } == nil)
        let order = keys.canonicalOrder.map(\.key.stringValue)
        #expect(order.count == declared.count)
        #expect(Set(order) == Set(declared.map(\.stringValue)))
        #expect(zip(order, order.dropFirst()).allSatisfy { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(keys.canonicalOrder.allSatisfy { declared[$0.index] == $0.key })
    }

    @Test func restoreRequestFieldsAreItsCodingKeys() { Self.check(RestoreRequest.CodingKeys.wire) }
    @Test func transactionRecordFieldsAreItsCodingKeys() { Self.check(TransactionRecord.CodingKeys.wire) }
    @Test func transactionPayloadFieldsAreItsCodingKeys() { Self.check(TransactionPayload.CodingKeys.wire) }
    @Test func snapshotFieldsAreItsCodingKeys() { Self.check(Snapshot.CodingKeys.wire) }
    @Test func entitlementFieldsAreItsCodingKeys() { Self.check(Entitlement.CodingKeys.wire) }
    @Test func syncResponseFieldsAreItsCodingKeys() { Self.check(SyncResponse.CodingKeys.wire) }
    @Test func verdictFieldsAreItsCodingKeys() { Self.check(Verdict.CodingKeys.wire) }

    @Test func theCanonicalOrderIsTheOrderTheCodablePathSorts() {
        let order = TransactionRecord.CodingKeys.wire.canonicalOrder.map(\.key.stringValue)
        #expect(order == [
            "appAccountToken", "environment", "evidence", "expiresDate", "isUpgraded", "originalPurchaseDate",
            "originalTransactionId", "ownershipType", "productId", "productType", "purchaseDate", "quantity",
            "revocationDate", "revocationReason", "signedDate", "signedTransaction", "subscriptionGroupId",
            "transactionId", "verifiedAt",
        ])
    }
}
