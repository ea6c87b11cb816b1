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
        var seen = 0
        let read = scanner.object { scanner, key in
            guard let field = JSONFastScanner.index(of: key, in: Self.fastKeys), seen & (1 << field) == 0 else {
                return false
            }
            seen |= 1 << field
            switch field {
            case 0:
                var records: [TransactionRecord] = []
                guard scanner.array({ scanner in
                    guard let record = TransactionRecord.fastDecoded(&scanner) else { return false }
                    records.append(record)
                    return true
                }) else { return false }
                entries = records
                return true
            case 1:
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
            case 2:
                return scanner.optionalBool(into: &userInitiated)
            default:
                return scanner.optionalBool(into: &dryRun)
            }
        }
        scanner.skipWhitespace()
        guard read, scanner.isAtEnd, let entries else { return nil }
        return RestoreRequest(entries: entries, legacyFlags: legacyFlags, userInitiated: userInitiated, dryRun: dryRun)
    }

    private static let fastKeys: [StaticString] = ["entries", "legacyFlags", "userInitiated", "dryRun"]
}

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

    /// The wire names, in the order ``read(_:from:)`` numbers them.
    static let keys: [StaticString] = [
        "transactionId", "originalTransactionId", "productId", "productType", "purchaseDate", "originalPurchaseDate",
        "expiresDate", "revocationDate", "revocationReason", "isUpgraded", "ownershipType", "environment",
        "appAccountToken", "quantity", "signedDate", "subscriptionGroupId", "evidence", "verifiedAt", "signedTransaction",
    ]
}

extension TransactionRecord {
    /// One entry as ``TransactionRecord/init(from:)`` reads it, or `nil`.
    fileprivate static func fastDecoded(_ scanner: inout JSONFastScanner) -> TransactionRecord? {
        var fields = RestoreEntryFields()
        var seen = 0
        let read = scanner.object { scanner, key in
            guard let field = JSONFastScanner.index(of: key, in: RestoreEntryFields.keys), seen & (1 << field) == 0 else {
                return false
            }
            seen |= 1 << field
            return fields.read(field, from: &scanner)
        }
        guard read else { return nil }
        return fields.record()
    }
}

extension RestoreEntryFields {
    /// Reads the value of field number `field` (``keys``); `false` for a value `JSONDecoder` might
    /// read differently. `null` stands for absent, as `decodeIfPresent` reads it; for a
    /// required field it is caught when the record is built.
    mutating func read(_ field: Int, from scanner: inout JSONFastScanner) -> Bool {
        switch field {
        case 0: return scanner.optionalString(into: &transactionId)
        case 1: return scanner.optionalString(into: &originalTransactionId)
        case 2: return scanner.optionalString(into: &productId)
        case 3: return scanner.optionalEnum(into: &productType)
        case 4: return scanner.optionalDate(into: &purchaseDate)
        case 5: return scanner.optionalDate(into: &originalPurchaseDate)
        case 6: return scanner.optionalDate(into: &expiresDate)
        case 7: return scanner.optionalDate(into: &revocationDate)
        case 8:
            var raw: Int?
            guard scanner.optionalInteger(into: &raw) else { return false }
            revocationReason = raw.map(RevocationReason.init(rawValue:))
            return true
        case 9: return scanner.optionalBool(into: &isUpgraded)
        case 10: return scanner.optionalEnum(into: &ownershipType)
        case 11: return scanner.optionalEnum(into: &environment)
        case 12:
            var text: String?
            guard scanner.optionalString(into: &text) else { return false }
            guard let text else { return true }
            appAccountToken = UUID(uuidString: text)
            return appAccountToken != nil
        case 13: return scanner.optionalInteger(into: &quantity)
        case 14: return scanner.optionalDate(into: &signedDate)
        case 15: return scanner.optionalString(into: &subscriptionGroupId)
        case 16: return scanner.optionalString(into: &evidence)
        case 17: return scanner.optionalDate(into: &verifiedAt)
        default: return scanner.optionalString(into: &signedTransaction)
        }
    }

    /// The record, with the defaults ``TransactionRecord/init(from:)`` gives; `nil` when a
    /// required field is missing or the evidence kind is unknown.
    func record() -> TransactionRecord? {
        guard let transactionId, let originalTransactionId, let productId, let productType, let purchaseDate,
            let originalPurchaseDate, let signedDate, let evidence
        else { return nil }
        let kind: Evidence
        switch evidence {
        case "jws": kind = .jws
        case "receipt":
            guard let verifiedAt else { return nil }
            kind = .receipt(verifiedAt: verifiedAt)
        case "unverifiedJWS": kind = .unverifiedJWS
        case "claim": kind = .claim
        default: return nil
        }
        return TransactionRecord(
            transactionId: transactionId, originalTransactionId: originalTransactionId, productId: productId,
            productType: productType, purchaseDate: purchaseDate, originalPurchaseDate: originalPurchaseDate,
            expiresDate: expiresDate, revocationDate: revocationDate, revocationReason: revocationReason,
            isUpgraded: isUpgraded ?? false, ownershipType: ownershipType ?? .purchased,
            environment: environment ?? .production, appAccountToken: appAccountToken, quantity: quantity ?? 1,
            signedDate: signedDate, subscriptionGroupId: subscriptionGroupId, evidence: kind,
            signedTransaction: signedTransaction)
    }
}

extension JSONFastScanner {
    /// `null` (leaves `value` absent) or a string.
    mutating func optionalString(into value: inout String?) -> Bool {
        if consumeNull() { return true }
        value = string()
        return value != nil
    }

    /// `null` or `true`/`false`.
    mutating func optionalBool(into value: inout Bool?) -> Bool {
        if consumeNull() { return true }
        value = bool()
        return value != nil
    }

    /// `null` or a plain integer.
    mutating func optionalInteger(into value: inout Int?) -> Bool {
        if consumeNull() { return true }
        value = integer()
        return value != nil
    }

    /// `null` or an RFC 3339 date, read as ``StoreSyncJSON/decodeDate(from:)`` reads it.
    mutating func optionalDate(into value: inout Date?) -> Bool {
        if consumeNull() { return true }
        value = string().flatMap(RFC3339Timestamp.date(from:))
        return value != nil
    }

    /// `null` or one of the enumeration's raw values.
    mutating func optionalEnum<Value: RawRepresentable<String>>(into value: inout Value?) -> Bool {
        if consumeNull() { return true }
        value = string().flatMap(Value.init(rawValue:))
        return value != nil
    }
}
