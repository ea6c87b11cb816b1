import Foundation
import StoreSyncCore

/// Writes the bytes a snapshot's signature covers straight from its fields.
///
/// The same bytes as ``CanonicalJSON`` gives for the snapshot's `Codable` form without the
/// signature — a property test holds the two to that — but without building a tree of boxed
/// values first: the server signs a snapshot on every lookup that misses the cache and every
/// restore, and the generic path was the largest share of that work. Members are written in
/// the canonical order (keys sorted by their UTF-8 bytes), fixed here because the keys are.
struct SnapshotCanonicalWriter {
    private(set) var bytes: [UInt8] = []

    init(expectedTransactions: Int) {
        bytes.reserveCapacity(256 + 420 * expectedTransactions)
    }

    /// Writes every field of `snapshot` but its signature.
    ///
    /// - Throws: `EncodingError.invalidValue` for a date outside years 0001–9999, as the
    ///   `Codable` path does.
    mutating func write(_ snapshot: Snapshot) throws {
        var object = startObject()
        member("accountId", &object)
        uuid(snapshot.accountId)
        member("entitlements", &object)
        try array(snapshot.entitlements) { writer, entitlement in try writer.write(entitlement) }
        member("generatedAt", &object)
        try date(snapshot.generatedAt)
        member("transactions", &object)
        try array(snapshot.transactions) { writer, record in try writer.write(record) }
        member("validUntil", &object)
        try date(snapshot.validUntil)
        member("version", &object)
        integer(snapshot.version)
        endObject()
    }

    private mutating func write(_ entitlement: Entitlement) throws {
        var object = startObject()
        member("entitlementId", &object)
        string(entitlement.entitlementId)
        member("environment", &object)
        string(entitlement.environment.rawValue)
        if let expiresAt = entitlement.expiresAt {
            member("expiresAt", &object)
            try date(expiresAt)
        }
        member("originalTransactionId", &object)
        string(entitlement.originalTransactionId)
        member("ownershipType", &object)
        string(entitlement.ownershipType.rawValue)
        member("productId", &object)
        string(entitlement.productId)
        member("source", &object)
        string(entitlement.source.rawValue)
        endObject()
    }

    private mutating func write(_ record: TransactionRecord) throws {
        var object = startObject()
        if let token = record.appAccountToken {
            member("appAccountToken", &object)
            uuid(token)
        }
        member("environment", &object)
        string(record.environment.rawValue)
        member("evidence", &object)
        string(record.evidence.kind)
        if let expiresDate = record.expiresDate {
            member("expiresDate", &object)
            try date(expiresDate)
        }
        member("isUpgraded", &object)
        bytes.append(contentsOf: (record.isUpgraded ? "true" : "false").utf8)
        member("originalPurchaseDate", &object)
        try date(record.originalPurchaseDate)
        member("originalTransactionId", &object)
        string(record.originalTransactionId)
        member("ownershipType", &object)
        string(record.ownershipType.rawValue)
        member("productId", &object)
        string(record.productId)
        member("productType", &object)
        string(record.productType.rawValue)
        member("purchaseDate", &object)
        try date(record.purchaseDate)
        member("quantity", &object)
        integer(Int64(record.quantity))
        if let revocationDate = record.revocationDate {
            member("revocationDate", &object)
            try date(revocationDate)
        }
        if let reason = record.revocationReason {
            member("revocationReason", &object)
            integer(Int64(reason.rawValue))
        }
        member("signedDate", &object)
        try date(record.signedDate)
        if let jws = record.signedTransaction {
            member("signedTransaction", &object)
            string(jws)
        }
        if let group = record.subscriptionGroupId {
            member("subscriptionGroupId", &object)
            string(group)
        }
        member("transactionId", &object)
        string(record.transactionId)
        if case .receipt(let verifiedAt) = record.evidence {
            member("verifiedAt", &object)
            try date(verifiedAt)
        }
        endObject()
    }

    // MARK: Pieces

    /// Whether the object being written has a member yet (the next one needs a comma).
    private struct OpenObject {
        var isEmpty = true
    }

    private mutating func startObject() -> OpenObject {
        bytes.append(UInt8(ascii: "{"))
        return OpenObject()
    }

    private mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
    }

    /// A member's key and colon; keys here are plain ASCII, so they need no escaping.
    private mutating func member(_ key: StaticString, _ object: inout OpenObject) {
        if !object.isEmpty { bytes.append(UInt8(ascii: ",")) }
        object.isEmpty = false
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: #"":"#.utf8)
    }

    private mutating func array<Element>(
        _ elements: [Element], _ writeElement: (inout SnapshotCanonicalWriter, Element) throws -> Void
    ) throws {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try writeElement(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func string(_ text: String) {
        JSONString.append(text, to: &bytes)
    }

    private mutating func integer(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    private mutating func date(_ date: Date) throws {
        guard JSONString.append(date, to: &bytes) else {
            throw EncodingError.invalidValue(date, .init(codingPath: [], debugDescription: "Dates must fall within years 0001–9999"))
        }
    }

    private mutating func uuid(_ id: UUID) {
        JSONString.append(id, to: &bytes)
    }
}
