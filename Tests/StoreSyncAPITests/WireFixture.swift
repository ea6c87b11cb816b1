import Foundation
import StoreSyncAPI
import StoreSyncCore

/// Sample values of every wire type, with every optional both set and unset somewhere.
enum WireFixture {
    static let instant = Date(millisecondsSince1970: 1_795_342_530_123)  // 2026-11-22T10:15:30.123Z
    static let accountId = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
    static let otherAccountId = UUID(uuidString: "0E984725-C51C-4BF4-9960-E1C80E27ABA0")!

    static let subscription = TransactionRecord(
        transactionId: "2000000123456789", originalTransactionId: "2000000123456700", productId: "monthly",
        productType: .autoRenewable, purchaseDate: instant, originalPurchaseDate: instant.addingTimeInterval(-86_400),
        expiresDate: instant.addingTimeInterval(30 * 86_400), ownershipType: .familyShared, environment: .sandbox,
        appAccountToken: otherAccountId, signedDate: instant, subscriptionGroupId: "group",
        evidence: .jws, signedTransaction: "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln")

    static let refunded = TransactionRecord(
        transactionId: "1000", originalTransactionId: "1000", productId: "lifetime", productType: .nonConsumable,
        purchaseDate: instant, originalPurchaseDate: instant, revocationDate: instant.addingTimeInterval(60),
        revocationReason: .appIssue, signedDate: instant.addingTimeInterval(60),
        evidence: .receipt(verifiedAt: instant.addingTimeInterval(61)))

    static let claim = TransactionRecord(
        transactionId: "claim-lifetime", originalTransactionId: "claim-lifetime", productId: "lifetime",
        productType: .nonConsumable, purchaseDate: instant, originalPurchaseDate: instant, signedDate: instant,
        evidence: .claim)

    static let lifetime = Entitlement(
        entitlementId: "premium", productId: "lifetime", originalTransactionId: "1000", expiresAt: nil,
        ownershipType: .purchased, source: .nonConsumable, environment: .production)

    static let expiring = Entitlement(
        entitlementId: "pro", productId: "monthly", originalTransactionId: "2000000123456700",
        expiresAt: instant.addingTimeInterval(30 * 86_400), ownershipType: .familyShared, source: .autoRenewable,
        environment: .sandbox)

    static let snapshot = Snapshot(
        accountId: accountId, version: 7, generatedAt: instant, validUntil: instant.addingTimeInterval(3 * 86_400),
        entitlements: [lifetime, expiring], transactions: [refunded, subscription], signature: "c2lnbmF0dXJl")

    static let verdicts = [
        Verdict(originalTransactionId: "1000", transactionId: "1000", verdict: .accepted),
        Verdict(originalTransactionId: "7", transactionId: "8", verdict: .ownedByOtherAccount, reason: "policy keep"),
        Verdict.legacyFlag(productId: "lifetime", verdict: .unverifiedClaim, reason: "no verified purchase"),
    ]

    static let event = PurchaseEvent(
        eventId: 42, accountId: accountId, kind: "transferred", originalTransactionId: "1000", transactionId: "1000",
        fromAccountId: otherAccountId, toAccountId: accountId, reason: "user-initiated restore", occurredAt: instant)
}
