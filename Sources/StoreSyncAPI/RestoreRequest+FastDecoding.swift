import Foundation
import StoreSyncCore

extension RestoreRequest {
    /// Reads a restore body the way ``StoreSyncJSON/makeDecoder()`` would, for bodies in the
    /// plain form StoreSync's clients write; `nil` for anything else (an unknown or repeated
    /// key, an escape in a string, a value of another type, malformed JSON), which the caller
    /// then decodes with `JSONDecoder` for its answer or its error naming the field.
    ///
    /// `JSONDecoder` spent 11–14 ms of a ~27 ms restore of 1,000 known entries building a
    /// keyed container per entry. Whatever this accepts, `JSONDecoder` decodes to the same
    /// value (a property test holds it to that on valid and on mangled bodies).
    ///
    /// - Parameter body: The request body.
    /// - Returns: The request, or `nil` to fall back.
    package static func fastDecoded(from body: UnsafeRawBufferPointer) -> RestoreRequest? {
        var scanner = JSONFastScanner(body.assumingMemoryBound(to: UInt8.self))
        var entries: [TransactionRecord]?
        var legacyFlags: [String: Bool]?
        var userInitiated: Bool?
        var dryRun: Bool?
        var seen = Set<FastKey>()
        let read = scanner.object { scanner, name in
            guard let key = FastKey(name), seen.insert(key).inserted else { return false }
            switch key {
            case .entries:
                var records: [TransactionRecord] = []
                guard scanner.array({ scanner in
                    guard let record = TransactionRecord.fastDecoded(&scanner) else { return false }
                    records.append(record)
                    return true
                }) else { return false }
                entries = records
                return true
            case .legacyFlags:
                if scanner.consumeNull() { return true }
                var flags: [String: Bool] = [:]
                guard scanner.object({ scanner, product in
                    let product = String(decoding: product, as: UTF8.self)
                    guard flags[product] == nil, let flag = scanner.bool() else { return false }
                    flags[product] = flag
                    return true
                }) else { return false }
                legacyFlags = flags
                return true
            case .userInitiated:
                return scanner.optional(into: &userInitiated) { $0.bool() }
            case .dryRun:
                return scanner.optional(into: &dryRun) { $0.bool() }
            }
        }
        scanner.skipWhitespace()
        guard read, scanner.isAtEnd, let entries else { return nil }
        return RestoreRequest(entries: entries, legacyFlags: legacyFlags, userInitiated: userInitiated, dryRun: dryRun)
    }

    /// The body's keys, by their wire names.
    private enum FastKey: Int, CaseIterable {
        case entries, legacyFlags, userInitiated, dryRun
        static let names: [StaticString] = ["entries", "legacyFlags", "userInitiated", "dryRun"]

        init?(_ name: UnsafeBufferPointer<UInt8>) {
            guard let index = JSONFastScanner.index(of: name, in: Self.names) else { return nil }
            self.init(rawValue: index)
        }
    }
}

/// The fields of one restore entry, collected while reading; the record is built at the end.
private struct RestoreEntryFields {
    /// An entry's keys, by their wire names (``TransactionRecord``'s coding keys).
    enum Key: Int, CaseIterable {
        case transactionId, originalTransactionId, productId, productType, purchaseDate, originalPurchaseDate
        case expiresDate, revocationDate, revocationReason, isUpgraded, ownershipType, environment
        case appAccountToken, quantity, signedDate, subscriptionGroupId, evidence, verifiedAt, signedTransaction

        /// The names, in case order.
        static let names: [StaticString] = [
            "transactionId", "originalTransactionId", "productId", "productType", "purchaseDate", "originalPurchaseDate",
            "expiresDate", "revocationDate", "revocationReason", "isUpgraded", "ownershipType", "environment",
            "appAccountToken", "quantity", "signedDate", "subscriptionGroupId", "evidence", "verifiedAt", "signedTransaction",
        ]

        init?(_ name: UnsafeBufferPointer<UInt8>) {
            guard let index = JSONFastScanner.index(of: name, in: Self.names) else { return nil }
            self.init(rawValue: index)
        }
    }

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
    mutating func read(_ key: Key, from scanner: inout JSONFastScanner) -> Bool {
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

extension TransactionRecord {
    /// One entry as ``TransactionRecord/init(from:)`` reads it, or `nil`.
    fileprivate static func fastDecoded(_ scanner: inout JSONFastScanner) -> TransactionRecord? {
        var fields = RestoreEntryFields()
        var seen = 0  // a bit per key: a thousand entries, no set each
        let read = scanner.object { scanner, name in
            guard let key = RestoreEntryFields.Key(name), seen & 1 << key.rawValue == 0 else { return false }
            seen |= 1 << key.rawValue
            return fields.read(key, from: &scanner)
        }
        return read ? fields.record() : nil
    }
}

extension JSONFastScanner {
    /// An RFC 3339 date, read as ``StoreSyncJSON/decodeDate(from:)`` reads it.
    mutating func date() -> Date? {
        string().flatMap(RFC3339Timestamp.date(from:))
    }
}
