package import AppStorePayloads
import Foundation
import StoreSyncCore

extension TransactionPayload: FastDecodable {
    /// Reads a signed transaction's payload the way ``PayloadDecoder`` would (`JSONDecoder`,
    /// dates in milliseconds since 1970), for payloads in the plain form Apple writes; `nil`
    /// for anything else (a repeated key, an escape or non-ASCII text in a string, a number
    /// that is not a plain integer, an unknown key whose value is not a plain scalar, malformed
    /// JSON), which the caller then decodes with `JSONDecoder` for its answer or its error.
    ///
    /// A restore of many new purchases verifies as many JWS, and `JSONDecoder` is a large share
    /// of each. Whatever this accepts, `JSONDecoder` decodes to the same value (a property test
    /// holds it to that on valid and on mangled payloads).
    ///
    /// - Parameter bytes: The payload's UTF-8 JSON.
    /// - Returns: The payload, or `nil` to fall back.
    package static func fastDecoded(from bytes: [UInt8]) -> TransactionPayload? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONFastScanner(buffer)
            var payload = TransactionPayload()
            var seen: UInt64 = 0
            let read = scanner.object { scanner, name in
                guard let (key, index) = CodingKeys.wire.key(named: name) else { return scanner.skipPlainValue() }
                guard seen & 1 << index == 0 else { return false }
                seen |= 1 << index
                return payload.read(key, from: &scanner)
            }
            scanner.skipWhitespace()
            return read && scanner.isAtEnd ? payload : nil
        }
    }

    /// Reads the value of `key`; `false` for a value `JSONDecoder` might read differently.
    private mutating func read(_ key: CodingKeys, from scanner: inout JSONFastScanner) -> Bool {
        switch key {
        case .originalTransactionId: scanner.optional(into: &originalTransactionId) { $0.string() }
        case .transactionId: scanner.optional(into: &transactionId) { $0.string() }
        case .webOrderLineItemId: scanner.optional(into: &webOrderLineItemId) { $0.string() }
        case .bundleId: scanner.optional(into: &bundleId) { $0.string() }
        case .productId: scanner.optional(into: &productId) { $0.string() }
        case .subscriptionGroupIdentifier: scanner.optional(into: &subscriptionGroupIdentifier) { $0.string() }
        case .purchaseDate: scanner.optional(into: &purchaseDate) { $0.milliseconds() }
        case .originalPurchaseDate: scanner.optional(into: &originalPurchaseDate) { $0.milliseconds() }
        case .expiresDate: scanner.optional(into: &expiresDate) { $0.milliseconds() }
        case .quantity: scanner.optional(into: &quantity) { $0.integer() }
        case .type: scanner.optional(into: &type) { $0.rawValue() }
        case .appAccountToken: scanner.optional(into: &appAccountToken) { $0.string().flatMap(UUID.init(uuidString:)) }
        case .inAppOwnershipType: scanner.optional(into: &inAppOwnershipType) { $0.rawValue() }
        case .signedDate: scanner.optional(into: &signedDate) { $0.milliseconds() }
        case .revocationReason:
            scanner.optional(into: &revocationReason) { $0.integer().map(RevocationReason.init(rawValue:)) }
        case .revocationDate: scanner.optional(into: &revocationDate) { $0.milliseconds() }
        case .isUpgraded: scanner.optional(into: &isUpgraded) { $0.bool() }
        case .offerType: scanner.optional(into: &offerType) { $0.integer() }
        case .offerIdentifier: scanner.optional(into: &offerIdentifier) { $0.string() }
        case .environment: scanner.optional(into: &environment) { $0.string() }
        case .storefront: scanner.optional(into: &storefront) { $0.string() }
        case .storefrontId: scanner.optional(into: &storefrontId) { $0.string() }
        case .transactionReason: scanner.optional(into: &transactionReason) { $0.rawValue() }
        case .currency: scanner.optional(into: &currency) { $0.string() }
        case .price: scanner.optional(into: &price) { $0.integer().map(Int64.init) }
        case .offerDiscountType: scanner.optional(into: &offerDiscountType) { $0.string() }
        case .appTransactionId: scanner.optional(into: &appTransactionId) { $0.string() }
        case .offerPeriod: scanner.optional(into: &offerPeriod) { $0.string() }
        case .revocationType: scanner.optional(into: &revocationType) { $0.rawValue() }
        case .revocationPercentage: scanner.optional(into: &revocationPercentage) { $0.integer() }
        }
    }
}

extension JSONFastScanner {
    /// A date in milliseconds since 1970, converted as `JSONDecoder`'s
    /// `.millisecondsSince1970` converts it; only integers that a `Double` holds exactly.
    fileprivate mutating func milliseconds() -> Date? {
        // `magnitude`, not `abs`: abs(Int.min) traps, and a forged payload reaches this before
        // any signature is checked.
        guard let milliseconds = integer(), milliseconds.magnitude <= 1 << 53 else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
