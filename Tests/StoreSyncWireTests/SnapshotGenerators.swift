import Foundation
import PropertyBased
import StoreSyncAPI
import StoreSyncCore

/// Random snapshots whose strings mix what needs escaping (quotes, backslashes, controls) with
/// what must pass through untouched (non-ASCII, U+007F, U+2028), with every optional field
/// present or absent and every case of every enumeration.
enum SnapshotGenerators {
    static let text = WireGenerators.escapeHeavyText
    static let productType = WireGenerators.one(of: ProductType.allCases)
    static let ownership = WireGenerators.one(of: OwnershipType.allCases)
    static let environment = WireGenerators.one(of: AppStoreEnvironment.allCases)

    /// Years 0001 to 9999, the range RFC 3339 timestamps are written for.
    static let instant = Gen.int64(in: -62_135_596_800_000...253_402_300_799_999).map(Date.init(millisecondsSince1970:))
    static let evidence = zip(Gen.int(in: 0...3), instant).map { kind, verifiedAt -> Evidence in
        [.jws, .receipt(verifiedAt: verifiedAt), .unverifiedJWS, .claim][kind]
    }

    static let record = zip(
        zip(text, text, text, productType),
        zip(instant, instant, instant.optional(), instant.optional(), Gen.int(in: 0...9).optional()),
        zip(Gen.bool, ownership, environment),
        zip(Gen.bool, Gen.int(in: -5...1_000_000), instant, text.optional(), evidence)
    ).map { identity, dates, flags, rest in
        let (transactionId, originalTransactionId, productId, productType) = identity
        let (purchased, originallyPurchased, expires, revoked, reason) = dates
        let (upgraded, ownershipType, environment) = flags
        let (hasToken, quantity, signed, group, evidence) = rest
        return TransactionRecord(
            transactionId: transactionId, originalTransactionId: originalTransactionId, productId: productId,
            productType: productType, purchaseDate: purchased, originalPurchaseDate: originallyPurchased,
            expiresDate: expires, revocationDate: revoked, revocationReason: reason.map(RevocationReason.init(rawValue:)),
            isUpgraded: upgraded, ownershipType: ownershipType, environment: environment,
            appAccountToken: hasToken ? UUID() : nil, quantity: quantity, signedDate: signed,
            subscriptionGroupId: group, evidence: evidence)
    }

    static let entitlement = zip(
        text, text, text, instant.optional(), zip(ownership, productType, environment)
    ).map { entitlementId, productId, originalTransactionId, expiresAt, kinds in
        let (ownershipType, source, environment) = kinds
        return Entitlement(
            entitlementId: entitlementId, productId: productId, originalTransactionId: originalTransactionId,
            expiresAt: expiresAt, ownershipType: ownershipType, source: source, environment: environment)
    }

    static let snapshot = zip(
        Gen.int64(), instant, instant, entitlement.array(of: 0...4), record.array(of: 0...5)
    ).map { version, generatedAt, validUntil, entitlements, transactions in
        Snapshot(
            accountId: UUID(), version: version, generatedAt: generatedAt, validUntil: validUntil,
            entitlements: entitlements, transactions: transactions)
    }
}
