import Foundation
import PropertyBased
import StoreSyncCore

/// Random ledgers for the merge laws: few transaction ids, original ids, signed dates and
/// products, so conflicting versions of one id, ties on `signedDate`, several chains, upgrades,
/// revocations and every kind of evidence meet often.
enum LedgerGenerators {
    static let products = ["lifetime", "monthly", "monthly.pro", "pass30", "pass7", "coins", "unknown.product"]

    static let evidences: [Evidence] = [
        .jws, .receipt(verifiedAt: Fixture.day(0)), .receipt(verifiedAt: Fixture.day(1)), .unverifiedJWS, .claim,
        .unrecognized(kind: "appTransaction"), .unrecognized(kind: "offerCode"),
    ]

    private static let identity = zip(
        Gen.int(in: 0...7),  // transaction id
        Gen.int(in: 0...3),  // original transaction id
        Gen.int(in: 0...(products.count - 1)),
        Gen.int(in: 0...3),  // signed day: ties are common
        Gen.int(in: 0...(evidences.count - 1)))

    private static let details = zip(
        Gen.int(in: 0...60),  // purchase day
        Gen.int(in: 1...40),  // expiry after purchase, days
        Gen.int(in: 0...4),  // 0: revoked
        Gen.int(in: 0...4),  // 0: upgraded
        Gen.int(in: 0...2),  // 0: no JWS; otherwise which of two JWS texts (they differ in bytes only)
        Gen.bool)  // family-shared

    /// One version of one transaction.
    static let version = zip(identity, details).map { identity, details in
        let (tid, oid, product, signed, evidence) = identity
        let (purchased, length, revoked, upgraded, jws, familyShared) = details
        let productId = products[product]
        let isSubscription = Fixture.type(of: productId) == .autoRenewable
        return Fixture.record(
            "t\(tid)", original: "o\(oid)", product: productId,
            purchased: Double(purchased), originallyPurchased: Double(purchased / 2),
            expires: isSubscription ? Double(purchased + length) : nil,
            revoked: revoked == 0 ? Double(purchased + 1) : nil,
            upgraded: upgraded == 0 && isSubscription,
            ownership: familyShared ? .familyShared : .purchased,
            signed: Double(signed * 10), evidence: evidences[evidence],
            signedTransaction: jws == 0 ? nil : "jws-t\(tid)-\(signed)-\(jws)")
    }

    /// One version of one chain's renewal info.
    static let renewalInfo = zip(Gen.int(in: 0...3), Gen.int(in: 0...3), Gen.int(in: 0...3), Gen.bool, Gen.bool)
        .map { oid, signed, grace, retrying, carriesJWS in
            RenewalInfo(
                originalTransactionId: "o\(oid)", autoRenewStatus: retrying,
                isInBillingRetryPeriod: retrying,
                gracePeriodExpiresDate: grace == 0 ? nil : Fixture.day(Double(grace * 20)),
                signedDate: Fixture.day(Double(signed)),
                signedRenewalInfo: carriesJWS ? "jws-o\(oid)-\(signed)" : nil)
        }

    /// One-field changes, so two versions of one id often tie on everything but one field and
    /// every step of the merge's total order gets exercised.
    static func tweak(_ record: TransactionRecord, _ kind: Int) -> TransactionRecord {
        var tweaked = record
        switch kind {
        case 1: tweaked.signedTransaction = (record.signedTransaction ?? "jws") + "-other"
        case 2: tweaked.signedTransaction = nil
        case 3: tweaked.revocationDate = record.revocationDate == nil ? record.signedDate : nil
        case 4: tweaked.expiresDate = (record.expiresDate ?? record.purchaseDate).addingTimeInterval(86_400)
        case 5: tweaked.evidence = .receipt(verifiedAt: Fixture.day(0))
        case 6: tweaked.signedDate = record.signedDate.addingTimeInterval(10 * 86_400)
        case 7: tweaked.isUpgraded.toggle()
        case 8: tweaked.ownershipType = record.ownershipType == .purchased ? .familyShared : .purchased
        case 9: tweaked.quantity += 1
        case 10: tweaked.appAccountToken = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")
        case 11: tweaked.environment = .sandbox
        case 12: tweaked.originalTransactionId += "x"
        case 13: tweaked.productId = "monthly.pro"
        case 14: tweaked.purchaseDate = record.purchaseDate.addingTimeInterval(-86_400)
        case 15: tweaked.evidence = .claim
        case 16: tweaked.revocationReason = .appIssue
        case 17: tweaked.subscriptionGroupId = nil
        case 18: tweaked.originalPurchaseDate = record.originalPurchaseDate.addingTimeInterval(-1)
        case 19: tweaked.productType = .nonConsumable
        default: break
        }
        return tweaked
    }

    static let tweakKind = Gen.int(in: 0...19)

    /// Two versions of one transaction that differ in at most two fields.
    static let nearDuplicates = zip(version, tweakKind, tweakKind).map { base, first, second in
        (tweak(base, first), tweak(base, second))
    }

    /// Versions of few ids, about half accompanied by a near-duplicate conflicting version.
    static let versions = zip(version, Gen.int(in: 0...39)).map { base, kind in
        kind < 20 ? [base] : [base, tweak(base, kind - 20)]
    }.array(of: 0...10).map { $0.flatMap { $0 } }
    static let renewalInfos = renewalInfo.array(of: 0...4)

    static let ledger = zip(versions, renewalInfos).map { Ledger(records: $0, renewalInfos: $1) }
}

/// A small deterministic generator for shuffles and splits inside a property.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
