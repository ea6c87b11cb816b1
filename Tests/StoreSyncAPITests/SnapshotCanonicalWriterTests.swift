import Foundation
import PropertyBased
@testable import StoreSyncAPI
import StoreSyncCore
import Testing

/// The direct writer behind ``Snapshot/signedBytes()`` gives exactly the bytes of the generic
/// `Codable` canonical path, which is what the signature's definition (and any client
/// re-deriving it) follows.
@Suite struct SnapshotCanonicalWriterTests {
    @Test func everySnapshotIsWrittenAsTheCodablePathWritesIt() async {
        await propertyCheck(count: 400, input: SnapshotGenerators.snapshot) { snapshot in
            let direct = try snapshot.signedBytes()
            #expect(try direct == snapshot.codableSignedBytes())
        }
    }

    @Test func aTransactionCarryingItsJWSIsWrittenAsTheCodablePathWritesIt() throws {
        var snapshot = WireFixture.snapshot
        snapshot.transactions[0].signedTransaction = "eyJ.\"jws\"\n.sig"
        let direct = try snapshot.signedBytes()
        #expect(try direct == snapshot.codableSignedBytes())
    }

    @Test(arguments: [-62_135_596_800_001, 253_402_300_800_000] as [Int64])
    func aDateNoYearCanWriteFailsOnBothPaths(milliseconds: Int64) {
        var snapshot = WireFixture.snapshot
        snapshot.transactions[0].expiresDate = Date(millisecondsSince1970: milliseconds)
        #expect(throws: EncodingError.self) { try snapshot.signedBytes() }
        #expect(throws: EncodingError.self) { try snapshot.codableSignedBytes() }
    }
}

/// Random snapshots whose strings mix what needs escaping (quotes, backslashes, controls) with
/// what must pass through untouched (non-ASCII, U+007F, U+2028), with every optional field
/// present or absent and every case of every enumeration.
enum SnapshotGenerators {
    static let pieces = ["a", "Z9", "é", "😀", "€", "\"", "\\", "\u{0}", "\u{1F}", "\n", "\t", "\u{7F}", "\u{2028}", "/"]
    static let text = one(of: pieces).array(of: 0...5).map { $0.joined() }
    static let productType = one(of: ProductType.allCases)
    static let ownership = one(of: OwnershipType.allCases)
    static let environment = one(of: AppStoreEnvironment.allCases)

    static func one<Value: Sendable>(of values: [Value]) -> Generator<Value, Shrink.Integer<Int>> {
        Gen.int(in: 0...(values.count - 1)).map { values[$0] }
    }
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
