package import Foundation
package import StoreSyncAPI
import StoreSyncCore

extension Snapshot {
    /// The bytes the signature covers: the canonical JSON of every field except ``signature``.
    ///
    /// The server signs them and a device re-derives them from the snapshot it decoded, so
    /// both sides must write the same bytes for the same snapshot.
    ///
    /// - Returns: Canonical UTF-8 JSON.
    /// - Throws: `EncodingError` when a date falls outside years 0001–9999.
    package func signedBytes() throws -> Data {
        var writer = CanonicalJSONWriter(capacity: 256 + 420 * transactions.count)
        try writer.writeSignedContent(of: self)
        return Data(writer.bytes)
    }

    /// A signed snapshot's JSON made from the bytes its signature covers, without encoding it
    /// a second time: the signature becomes the first member of the signed object.
    ///
    /// JSON members are unordered, and a device checks the signature over the canonical bytes
    /// it derives from the decoded snapshot, so the body's member order carries no meaning.
    ///
    /// - Parameters:
    ///   - signedBytes: ``signedBytes()`` of the snapshot: a JSON object with members.
    ///   - signature: Base64 of the Ed25519 signature over them (base64 needs no escaping).
    /// - Returns: JSON that decodes to the snapshot with that signature.
    package static func body(signedBytes: Data, signature: String) -> Data {
        precondition(signedBytes.first == UInt8(ascii: "{") && signedBytes.count > 2, "signed bytes must be a JSON object with members")
        let signatureMember = CodingKeys.wire.member(CodingKeys.signatureIndex)
        var body = Data(capacity: signedBytes.count + signatureMember.count + signature.utf8.count + 4)
        body.append(UInt8(ascii: "{"))
        body.append(contentsOf: signatureMember)
        body.append(UInt8(ascii: "\""))
        body.append(contentsOf: signature.utf8)
        body.append(contentsOf: #"","#.utf8)
        body.append(signedBytes.dropFirst())
        return body
    }
}

extension Snapshot.CodingKeys {
    /// Where `signature` is among the keys.
    fileprivate static let signatureIndex = allCases.firstIndex(of: .signature)!
}

extension CanonicalJSONWriter {
    /// Writes every field of `snapshot` but its signature.
    mutating func writeSignedContent(of snapshot: Snapshot) throws {
        var object = startObject(Snapshot.CodingKeys.wire)
        for (key, index) in object.keys.canonicalOrder {
            switch key {
            case .accountId: member(index, uuid: snapshot.accountId, in: &object)
            case .entitlements: try member(index, array: snapshot.entitlements, in: &object) { try $0.write($1) }
            case .generatedAt: try member(index, date: snapshot.generatedAt, in: &object)
            case .signature: continue
            case .transactions: try member(index, array: snapshot.transactions, in: &object) { try $0.write($1) }
            case .validUntil: try member(index, date: snapshot.validUntil, in: &object)
            case .version: member(index, integer: snapshot.version, in: &object)
            }
        }
        endObject(object)
    }

    private mutating func write(_ entitlement: Entitlement) throws {
        var object = startObject(Entitlement.CodingKeys.wire)
        for (key, index) in object.keys.canonicalOrder {
            switch key {
            case .entitlementId: member(index, string: entitlement.entitlementId, in: &object)
            case .environment: member(index, string: entitlement.environment.rawValue, in: &object)
            case .expiresAt: try member(index, date: entitlement.expiresAt, in: &object)
            case .originalTransactionId: member(index, string: entitlement.originalTransactionId, in: &object)
            case .ownershipType: member(index, string: entitlement.ownershipType.rawValue, in: &object)
            case .productId: member(index, string: entitlement.productId, in: &object)
            case .source: member(index, string: entitlement.source.rawValue, in: &object)
            }
        }
        endObject(object)
    }

    private mutating func write(_ record: TransactionRecord) throws {
        var object = startObject(TransactionRecord.CodingKeys.wire)
        for (key, index) in object.keys.canonicalOrder {
            switch key {
            case .appAccountToken: member(index, uuid: record.appAccountToken, in: &object)
            case .environment: member(index, string: record.environment.rawValue, in: &object)
            case .evidence: member(index, string: record.evidence.kind, in: &object)
            case .expiresDate: try member(index, date: record.expiresDate, in: &object)
            case .isUpgraded: member(index, bool: record.isUpgraded, in: &object)
            case .originalPurchaseDate: try member(index, date: record.originalPurchaseDate, in: &object)
            case .originalTransactionId: member(index, string: record.originalTransactionId, in: &object)
            case .ownershipType: member(index, string: record.ownershipType.rawValue, in: &object)
            case .productId: member(index, string: record.productId, in: &object)
            case .productType: member(index, string: record.productType.rawValue, in: &object)
            case .purchaseDate: try member(index, date: record.purchaseDate, in: &object)
            case .quantity: member(index, integer: Int64(record.quantity), in: &object)
            case .revocationDate: try member(index, date: record.revocationDate, in: &object)
            case .revocationReason: member(index, integer: record.revocationReason.map { Int64($0.rawValue) }, in: &object)
            case .signedDate: try member(index, date: record.signedDate, in: &object)
            case .signedTransaction: member(index, string: record.signedTransaction, in: &object)
            case .subscriptionGroupId: member(index, string: record.subscriptionGroupId, in: &object)
            case .transactionId: member(index, string: record.transactionId, in: &object)
            case .verifiedAt: try member(index, date: record.evidence.verifiedAt, in: &object)
            }
        }
        endObject(object)
    }
}
