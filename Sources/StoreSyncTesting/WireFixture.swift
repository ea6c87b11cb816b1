public import Foundation
public import StoreSyncAPI
public import StoreSyncCore

/// Sample values of every wire type, with every optional both set and unset somewhere: what
/// the tests of the plain `Codable` forms and of StoreSyncWire's fast paths share.
public enum WireFixture {
    /// 2026-11-22T10:15:30.123Z.
    public static let instant = Date(millisecondsSince1970: 1_795_342_530_123)
    /// The account of the sample snapshot.
    public static let accountId = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
    /// Another account (a transfer's other side, an app account token).
    public static let otherAccountId = UUID(uuidString: "0E984725-C51C-4BF4-9960-E1C80E27ABA0")!

    /// A family-shared sandbox subscription carrying its JWS.
    public static let subscription = TransactionRecord(
        transactionId: "2000000123456789", originalTransactionId: "2000000123456700", productId: "monthly",
        productType: .autoRenewable, purchaseDate: instant, originalPurchaseDate: instant.addingTimeInterval(-86_400),
        expiresDate: instant.addingTimeInterval(30 * 86_400), ownershipType: .familyShared, environment: .sandbox,
        appAccountToken: otherAccountId, signedDate: instant, subscriptionGroupId: "group",
        evidence: .jws, signedTransaction: "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln")

    /// A refunded lifetime purchase confirmed by a receipt.
    public static let refunded = TransactionRecord(
        transactionId: "1000", originalTransactionId: "1000", productId: "lifetime", productType: .nonConsumable,
        purchaseDate: instant, originalPurchaseDate: instant, revocationDate: instant.addingTimeInterval(60),
        revocationReason: .appIssue, signedDate: instant.addingTimeInterval(60),
        evidence: .receipt(verifiedAt: instant.addingTimeInterval(61)))

    /// A legacy flag's claim.
    public static let claim = TransactionRecord(
        transactionId: "claim-lifetime", originalTransactionId: "claim-lifetime", productId: "lifetime",
        productType: .nonConsumable, purchaseDate: instant, originalPurchaseDate: instant, signedDate: instant,
        evidence: .claim)

    /// A lifetime entitlement.
    public static let lifetime = Entitlement(
        entitlementId: "premium", productId: "lifetime", originalTransactionId: "1000", expiresAt: nil,
        ownershipType: .purchased, source: .nonConsumable, environment: .production)

    /// An entitlement that expires.
    public static let expiring = Entitlement(
        entitlementId: "pro", productId: "monthly", originalTransactionId: "2000000123456700",
        expiresAt: instant.addingTimeInterval(30 * 86_400), ownershipType: .familyShared, source: .autoRenewable,
        environment: .sandbox)

    /// A signed snapshot of both entitlements and two transactions.
    public static let snapshot = Snapshot(
        accountId: accountId, version: 7, generatedAt: instant, validUntil: instant.addingTimeInterval(3 * 86_400),
        entitlements: [lifetime, expiring], transactions: [refunded, subscription], signature: "c2lnbmF0dXJl")

    /// One verdict of each shape: plain, with a reason, on a legacy flag.
    public static let verdicts = [
        Verdict(originalTransactionId: "1000", transactionId: "1000", verdict: .accepted),
        Verdict(originalTransactionId: "7", transactionId: "8", verdict: .ownedByOtherAccount, reason: "policy keep"),
        Verdict.legacyFlag(productId: "lifetime", verdict: .unverifiedClaim, reason: "no verified purchase"),
    ]

    /// An ownership transfer.
    public static let event = PurchaseEvent(
        eventId: 42, accountId: accountId, kind: "transferred", originalTransactionId: "1000", transactionId: "1000",
        fromAccountId: otherAccountId, toAccountId: accountId, reason: "user-initiated restore", occurredAt: instant)
}
