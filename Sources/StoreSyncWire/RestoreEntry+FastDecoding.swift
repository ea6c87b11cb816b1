import Foundation
import StoreSyncAPI
import StoreSyncCore

/// The fields of one restore entry, collected while reading; the record is built at the end.
private struct RestoreEntryFields {
    var transactionId: String?
    var originalTransactionId: String?
    var productId: String?
    var productType: ProductType?
    var purchaseDate: Date?
    var originalPurchaseDate: Date?
    var expiresDate: Date?
    var revocationDate: Date?
    var revocationReason: RevocationReason?
    var isUpgraded: Bool?
    var ownershipType: OwnershipType?
    var environment: AppStoreEnvironment?
    var appAccountToken: UUID?
    var quantity: Int?
    var signedDate: Date?
    var subscriptionGroupId: String?
    var evidence: String?
    var verifiedAt: Date?
    var signedTransaction: String?

    /// Reads the value of `key`; `false` for a value `JSONDecoder` might read differently.
    /// `null` stands for absent, as `decodeIfPresent` reads it; for a required field it is
    /// caught when the record is built.
    mutating func read(_ key: TransactionRecord.CodingKeys, from scanner: inout JSONFastScanner) -> Bool {
        switch key {
        case .transactionId: scanner.optional(into: &transactionId) { $0.string() }
        case .originalTransactionId: scanner.optional(into: &originalTransactionId) { $0.string() }
        case .productId: scanner.optional(into: &productId) { $0.string() }
        case .productType: scanner.optional(into: &productType) { $0.rawValue() }
        case .purchaseDate: scanner.optional(into: &purchaseDate) { $0.date() }
        case .originalPurchaseDate: scanner.optional(into: &originalPurchaseDate) { $0.date() }
        case .expiresDate: scanner.optional(into: &expiresDate) { $0.date() }
        case .revocationDate: scanner.optional(into: &revocationDate) { $0.date() }
        case .revocationReason: scanner.optional(into: &revocationReason) { $0.integer().map(RevocationReason.init(rawValue:)) }
        case .isUpgraded: scanner.optional(into: &isUpgraded) { $0.bool() }
        case .ownershipType: scanner.optional(into: &ownershipType) { $0.rawValue() }
        case .environment: scanner.optional(into: &environment) { $0.rawValue() }
        case .appAccountToken: scanner.optional(into: &appAccountToken) { $0.string().flatMap(UUID.init(uuidString:)) }
        case .quantity: scanner.optional(into: &quantity) { $0.integer() }
        case .signedDate: scanner.optional(into: &signedDate) { $0.date() }
        case .subscriptionGroupId: scanner.optional(into: &subscriptionGroupId) { $0.string() }
        case .evidence: scanner.optional(into: &evidence) { $0.string() }
        case .verifiedAt: scanner.optional(into: &verifiedAt) { $0.date() }
        case .signedTransaction: scanner.optional(into: &signedTransaction) { $0.string() }
        }
    }

    /// The record, with the defaults ``TransactionRecord/init(from:)`` gives; `nil` when a
    /// required field is missing or the evidence kind is unknown.
    func record() -> TransactionRecord? {
        guard let transactionId, let originalTransactionId, let productId, let productType, let purchaseDate,
            let originalPurchaseDate, let signedDate, let evidence = evidence.flatMap({ Evidence(kind: $0, verifiedAt: verifiedAt) })
        else { return nil }
        return TransactionRecord(
            transactionId: transactionId, originalTransactionId: originalTransactionId, productId: productId,
            productType: productType, purchaseDate: purchaseDate, originalPurchaseDate: originalPurchaseDate,
            expiresDate: expiresDate, revocationDate: revocationDate, revocationReason: revocationReason,
            isUpgraded: isUpgraded ?? false, ownershipType: ownershipType ?? .purchased,
            environment: environment ?? .production, appAccountToken: appAccountToken, quantity: quantity ?? 1,
            signedDate: signedDate, subscriptionGroupId: subscriptionGroupId, evidence: evidence,
            signedTransaction: signedTransaction)
    }
}

extension RestoreEntry {
    /// One restore entry as ``RestoreEntry/init(from:)`` reads it, or `nil` for anything
    /// outside the plain form (an unknown or repeated key among them): an object naming no
    /// record field but `signedTransaction` is that signed transaction alone, any other a
    /// whole record.
    static func fastDecoded(_ scanner: inout JSONFastScanner) -> RestoreEntry? {
        var fields = RestoreEntryFields()
        var seen = 0  // a bit per key: no set per entry
        let read = scanner.object { scanner, name in
            guard let (key, index) = TransactionRecord.CodingKeys.wire.key(named: name), seen & 1 << index == 0
            else { return false }
            seen |= 1 << index
            return fields.read(key, from: &scanner)
        }
        guard read else { return nil }
        if seen & ~Self.signedTransactionBit == 0 { return fields.signedTransaction.map(RestoreEntry.signedTransaction) }
        return fields.record().map(RestoreEntry.record)
    }

    /// The bit of `signedTransaction` in a reader's set of the keys it has seen (its index among
    /// the keys, which every key has).
    private static let signedTransactionBit = 1 << TransactionRecord.CodingKeys.allCases.firstIndex(of: .signedTransaction)!
}

extension JSONFastScanner {
    /// An RFC 3339 date, read as ``StoreSyncJSON/decodeDate(from:)`` reads it.
    mutating func date() -> Date? {
        stringBytes().flatMap(RFC3339Timestamp.date(fromUTF8:))
    }
}
