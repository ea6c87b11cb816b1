package import Foundation
package import StoreSyncAPI
package import StoreSyncCore

extension Snapshot {
    /// The bytes the signature covers: the canonical JSON of every field except ``signature``.
    ///
    /// The server signs them. A device checks a snapshot in the server's layout over its bytes
    /// as received, and re-derives these only for one cached by an earlier client version
    /// (encoded again, members in another order), so both sides must still write the same
    /// bytes for the same snapshot.
    ///
    /// - Returns: Canonical UTF-8 JSON.
    /// - Throws: `EncodingError` when a date falls outside years 0001–9999.
    package func signedBytes() throws -> Data {
        var writer = CanonicalJSONWriter(capacity: bodyCapacity)
        try writer.writeSignedContent(of: self)
        return Data(writer.bytes)
    }

    /// A signed snapshot's JSON, written once: the bytes the signature covers are written with
    /// room before them, `sign` signs them where they lie, and the signature becomes the first
    /// member of the object, in that room.
    ///
    /// This layout is part of the wire: a device checks the signature over the body as received
    /// with its `signature` member taken out (``ReceivedSnapshotSignature``), so members and
    /// values a later server writes verify on a device that does not know them. Every answer
    /// that carries a signed snapshot writes it through here. Written this way, a snapshot of
    /// 10,000 purchases (4 MB) is also one buffer, not its signed bytes plus a body copied from
    /// them.
    ///
    /// - Parameters:
    ///   - sign: Signs ``signedBytes()`` (it is handed exactly those bytes) and answers base64
    ///     of the signature (base64 needs no escaping).
    ///   - transactions: The ``transactions`` array already written, e.g. on another core
    ///     while the entitlements were derived; `nil` writes it here.
    /// - Returns: JSON that decodes to the snapshot with the signature `sign` answered.
    /// - Throws: What `sign` throws; `EncodingError` when a date falls outside years 0001–9999.
    package func body(
        signedBy sign: (UnsafeRawBufferPointer) throws -> String, transactions: WrittenTransactions? = nil
    ) throws -> [UInt8] {
        var writer = CanonicalJSONWriter(capacity: bodyCapacity)
        try writer.writeSigned(self, signedBy: sign, transactions: transactions)
        return writer.bytes
    }

    /// Bytes to reserve for the snapshot's JSON: most of a snapshot is its transactions.
    var bodyCapacity: Int { 256 + Self.bytesPerTransaction * transactions.count }

    /// About what one transaction takes in a snapshot's JSON.
    fileprivate static let bytesPerTransaction = 420
}

extension Snapshot.CodingKeys {
    /// Where `signature` is among the keys.
    fileprivate static let signatureIndex = allCases.firstIndex(of: .signature)!

    /// The length of base64 of a 64-byte Ed25519 signature: the room left for it. A signature
    /// of another length still lands, at the cost of moving the bytes after it once.
    fileprivate static let expectedSignatureLength = 88
}

extension CanonicalJSONWriter {
    /// Writes `snapshot` with its signature as the first member: `{"signature":"…",` followed
    /// by the signed bytes without their opening brace.
    ///
    /// The signed bytes are written after room for that prefix less one byte: their opening
    /// brace sits where the prefix's closing comma goes, so once they are signed, the prefix is
    /// written over the room and the brace.
    mutating func writeSigned(
        _ snapshot: Snapshot, signedBy sign: (UnsafeRawBufferPointer) throws -> String,
        transactions: WrittenTransactions? = nil
    ) throws {
        let start = reserve(Self.signatureRoom - 1)
        try writeSignedContent(of: snapshot, transactions: transactions)
        let signedStart = start + Self.signatureRoom - 1
        let signature = try bytes.withUnsafeBytes { try sign(UnsafeRawBufferPointer(rebasing: $0[signedStart...])) }
        replace(start...signedStart, with: Self.signaturePrefix(signature))
    }

    /// The length of the prefix for a signature of the expected length.
    private static let signatureRoom = signaturePrefix(
        String(repeating: "A", count: Snapshot.CodingKeys.expectedSignatureLength)).count

    /// `{"signature":"…",`: what goes before the signed bytes without their opening brace.
    private static func signaturePrefix(_ signature: String) -> [UInt8] {
        var prefix = [UInt8(ascii: "{")]
        prefix.append(contentsOf: Snapshot.CodingKeys.wire.member(Snapshot.CodingKeys.signatureIndex))
        prefix.append(UInt8(ascii: "\""))
        prefix.append(contentsOf: signature.utf8)
        prefix.append(contentsOf: #"","#.utf8)
        return prefix
    }
}

extension CanonicalJSONWriter {
    /// Writes every field of `snapshot` but its signature.
    ///
    /// - Parameter transactions: The snapshot's `transactions` array already written; `nil`
    ///   writes it here.
    mutating func writeSignedContent(of snapshot: Snapshot, transactions: WrittenTransactions? = nil) throws {
        if let transactions {
            precondition(
                transactions.count == snapshot.transactions.count, "the written transactions are not the snapshot's")
        }
        var object = startObject(Snapshot.CodingKeys.wire)
        for (key, index) in object.keys.canonicalOrder {
            switch key {
            case .accountId: member(index, uuid: snapshot.accountId, in: &object)
            case .entitlements: try member(index, array: snapshot.entitlements, in: &object) { try $0.write($1) }
            case .generatedAt: try member(index, date: snapshot.generatedAt, in: &object)
            case .signature: continue
            case .transactions:
                if let transactions {
                    member(index, in: &object)
                    appendWritten(transactions.bytes)
                } else {
                    try member(index, array: snapshot.transactions, in: &object) { try $0.write($1) }
                }
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

    /// - Parameter includingText: Whether to write `signedTransaction`; ``WrittenTransactions``
    ///   leaves it out, as `Snapshot.init` does.
    fileprivate mutating func write(_ record: TransactionRecord, includingText: Bool = true) throws {
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
            case .signedTransaction:
                if includingText { member(index, string: record.signedTransaction, in: &object) }
            case .subscriptionGroupId: member(index, string: record.subscriptionGroupId, in: &object)
            case .transactionId: member(index, string: record.transactionId, in: &object)
            case .verifiedAt: try member(index, date: record.evidence.verifiedAt, in: &object)
            }
        }
        endObject(object)
    }
}

/// A snapshot's `transactions` array as JSON, written apart from the rest of the snapshot: on
/// another core, say, while the entitlements are derived. The snapshot writers copy it in where
/// the array goes.
///
/// Written from a ledger's records, without their JWS, as `Snapshot.init` keeps them: the
/// bytes are those the writers give for a snapshot of the same records.
package struct WrittenTransactions: Sendable {
    /// The array, `[` to `]`.
    let bytes: [UInt8]
    /// How many records it holds; a snapshot with another count is not the one it was written for.
    let count: Int

    /// Writes `records`, in their order.
    ///
    /// - Throws: `EncodingError` when a date falls outside years 0001–9999.
    package init(_ records: [TransactionRecord]) throws {
        var writer = CanonicalJSONWriter(capacity: 2 + Snapshot.bytesPerTransaction * records.count)
        try writer.array(records) { try $0.write($1, includingText: false) }
        bytes = writer.bytes
        count = records.count
    }
}
