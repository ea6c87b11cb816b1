public import Foundation
public import StoreSyncCore

/// An account's entitlements and transactions at one version, signed by the server.
///
/// The signature is Ed25519 over the canonical JSON of every field but ``signature`` (keys
/// sorted by their UTF-8 bytes, no whitespace, RFC 3339 dates with milliseconds; written by
/// StoreSyncWire), so a client can trust a cached snapshot offline and detect tampering. The
/// server writes ``signature`` as the first member followed by exactly those bytes, and a
/// client checks the text it received with that member taken out: members a later server adds
/// are signed too, and a client that does not know them still verifies the snapshot and
/// ignores them when decoding.
/// Transactions never carry `signedTransaction`: the server strips Apple's JWS, and so does
/// every initializer here (decoding included), so the signed bytes never depend on it.
public struct Snapshot: Sendable, Hashable, Codable {
    /// The account.
    public var accountId: UUID
    /// The account's version; bumps on every change and serves as the ETag.
    public var version: Int64
    /// When the server derived it.
    public var generatedAt: Date
    /// Until when a client may answer offline from it.
    public var validUntil: Date
    /// The granted entitlements, by entitlement id.
    public var entitlements: [Entitlement]
    /// The account's transactions, without their JWS.
    public var transactions: [TransactionRecord]
    /// Base64 of the Ed25519 signature over the canonical JSON of the other fields; empty
    /// before signing.
    public var signature: String

    /// Creates a snapshot; dates are rounded to milliseconds and `signedTransaction` is removed
    /// from every transaction.
    ///
    /// - Parameters:
    ///   - accountId: The account.
    ///   - version: The account's version.
    ///   - generatedAt: When it was derived.
    ///   - validUntil: Until when it may be used offline.
    ///   - entitlements: The granted entitlements.
    ///   - transactions: The account's transactions.
    ///   - signature: The base64 signature, empty before signing.
    public init(
        accountId: UUID,
        version: Int64,
        generatedAt: Date,
        validUntil: Date,
        entitlements: [Entitlement],
        transactions: [TransactionRecord],
        signature: String = ""
    ) {
        self.accountId = accountId
        self.version = version
        self.generatedAt = generatedAt.roundedToMilliseconds
        self.validUntil = validUntil.roundedToMilliseconds
        self.entitlements = entitlements
        // Records read for a lookup carry no JWS: the array is kept, not copied record by record.
        self.transactions =
            transactions.contains { $0.signedTransaction != nil }
            ? transactions.map { record in
                var stripped = record
                stripped.signedTransaction = nil
                return stripped
            } : transactions
        self.signature = signature
    }

    /// The wire names, which StoreSyncWire's writers derive their own from.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case accountId, version, generatedAt, validUntil, entitlements, transactions, signature
    }

    /// Decodes a snapshot; a missing `signature` reads as unsigned (empty).
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when a field is missing or malformed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            accountId: try container.decode(UUID.self, forKey: .accountId),
            version: try container.decode(Int64.self, forKey: .version),
            generatedAt: try container.decode(Date.self, forKey: .generatedAt),
            validUntil: try container.decode(Date.self, forKey: .validUntil),
            entitlements: try container.decode([Entitlement].self, forKey: .entitlements),
            transactions: try container.decode([TransactionRecord].self, forKey: .transactions),
            signature: try container.decodeIfPresent(String.self, forKey: .signature) ?? "")
    }

    /// Encodes every field, the signature included.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: An error of the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accountId, forKey: .accountId)
        try container.encode(version, forKey: .version)
        try container.encode(generatedAt, forKey: .generatedAt)
        try container.encode(validUntil, forKey: .validUntil)
        try container.encode(entitlements, forKey: .entitlements)
        try container.encode(transactions, forKey: .transactions)
        try container.encode(signature, forKey: .signature)
    }

    /// This snapshot with a signature.
    ///
    /// - Parameter signature: Base64 of the Ed25519 signature over the snapshot's canonical JSON.
    /// - Returns: A copy carrying the signature.
    public func signed(_ signature: String) -> Snapshot {
        var copy = self
        copy.signature = signature
        return copy
    }

    /// The entitlement with this id, whatever its expiry.
    ///
    /// - Parameter entitlementId: The entitlement id.
    /// - Returns: The entitlement, or `nil` when the snapshot does not list it.
    public func entitlement(_ entitlementId: String) -> Entitlement? {
        entitlements.first { $0.entitlementId == entitlementId }
    }

    /// Whether the snapshot grants an entitlement at a moment: listed, and lifetime or
    /// expiring after `date`. Whether the snapshot itself may still be trusted (``validUntil``)
    /// is the caller's decision.
    ///
    /// - Parameters:
    ///   - entitlementId: The entitlement id.
    ///   - date: The moment to check.
    /// - Returns: `true` when access holds at `date`.
    public func isEntitled(to entitlementId: String, at date: Date) -> Bool {
        guard let entitlement = entitlement(entitlementId) else { return false }
        return entitlement.expiresAt.map { $0 > date } ?? true
    }
}
