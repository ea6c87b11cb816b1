import Foundation
import PropertyBased
import StoreSyncCore
import Testing

@Suite struct MergeLawPropertyTests {
    @Test func mergeIsCommutative() async {
        await propertyCheck(count: 300, input: LedgerGenerators.ledger, LedgerGenerators.ledger) { a, b in
            #expect(a.merging(b) == b.merging(a))
        }
    }

    @Test func mergeIsAssociative() async {
        await propertyCheck(count: 300, input: LedgerGenerators.ledger, LedgerGenerators.ledger, LedgerGenerators.ledger) {
            a, b, c in
            #expect(a.merging(b).merging(c) == a.merging(b.merging(c)))
        }
    }

    @Test func mergeIsIdempotent() async {
        await propertyCheck(count: 300, input: LedgerGenerators.ledger) { ledger in
            #expect(ledger.merging(ledger) == ledger)
        }
    }

    @Test func mergingAnyPartOfTheSameVersionsChangesNothing() async {
        await propertyCheck(count: 300, input: LedgerGenerators.versions, Gen<UInt64>.uint64()) { versions, seed in
            var random = SplitMix64(state: seed)
            let part = versions.filter { _ in Bool.random(using: &random) }
            let whole = Ledger(records: versions)
            #expect(whole.merging(Ledger(records: part)) == whole)
        }
    }

    @Test func preferredIgnoresArgumentOrder() async {
        await propertyCheck(count: 1000, input: LedgerGenerators.nearDuplicates) { a, b in
            let forward = TransactionRecord.preferred(a, b)
            let backward = TransactionRecord.preferred(b, a)
            #expect(forward == backward)
            #expect(forward.signedTransaction == backward.signedTransaction)
        }
    }

    @Test func versionsRankEqualOnlyWhenIdentical() async {
        await propertyCheck(count: 1000, input: LedgerGenerators.nearDuplicates) { a, b in
            let tied = !TransactionRecord.isPreferred(a, over: b) && !TransactionRecord.isPreferred(b, over: a)
            #expect(tied == (a == b))
        }
    }

    @Test func renewalInfoPreferredIgnoresArgumentOrder() async {
        await propertyCheck(count: 300, input: LedgerGenerators.renewalInfo, LedgerGenerators.renewalInfo) { a, b in
            #expect(RenewalInfo.preferred(a, b) == RenewalInfo.preferred(b, a))
        }
    }

    @Test func entitlementsDoNotDependOnMergeOrder() async {
        await propertyCheck(count: 300, input: LedgerGenerators.ledger, LedgerGenerators.ledger, Gen.int(in: 0...90)) {
            a, b, day in
            let at = Fixture.day(Double(day))
            let forward = explainEntitlements(ledger: a.merging(b), catalog: Fixture.catalog, at: at)
            let backward = explainEntitlements(ledger: b.merging(a), catalog: Fixture.catalog, at: at)
            #expect(forward == backward)
            #expect(entitlements(ledger: a.merging(b), catalog: Fixture.catalog, at: at)
                == entitlements(ledger: b.merging(a), catalog: Fixture.catalog, at: at))
        }
    }

    /// Devices receive the same versions in any order and any split, one merge at a time,
    /// then exchange ledgers in any order: all converge on the ledger of all versions.
    @Test func anyShuffleAndSplitAcrossDevicesConverges() async {
        await propertyCheck(
            count: 300, input: LedgerGenerators.versions, LedgerGenerators.renewalInfos, Gen.int(in: 1...4),
            Gen<UInt64>.uint64()
        ) { versions, infos, deviceCount, seed in
            var random = SplitMix64(state: seed)
            var devices = [Ledger](repeating: Ledger(), count: deviceCount)
            for version in versions.shuffled(using: &random) {
                devices[Int.random(in: 0..<deviceCount, using: &random)].merge(version)
            }
            for info in infos.shuffled(using: &random) {
                devices[Int.random(in: 0..<deviceCount, using: &random)].merge(info)
            }
            let converged = devices.shuffled(using: &random).reduce(Ledger()) { $0.merging($1) }
            #expect(converged == Ledger(records: versions, renewalInfos: infos))
        }
    }

    @Test func deviceMergingOneVersionAtATimeMatchesBulkConstruction() async {
        await propertyCheck(count: 300, input: LedgerGenerators.versions) { versions in
            var incremental = Ledger()
            for version in versions { incremental.merge(version) }
            #expect(incremental == Ledger(records: versions))
            #expect(incremental.records.map(\.transactionId) == incremental.records.map(\.transactionId).sorted())
        }
    }
}
