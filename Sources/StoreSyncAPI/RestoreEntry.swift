public import StoreSyncCore

/// One entry of a restore: a cached transaction, or only a StoreKit 2 signed transaction.
///
/// The Swift client sends its cached records. An app without that cache (Flutter, React Native,
/// a backend) sends `{"signedTransaction": "…"}` alone, and the server reads every field from
/// the verified JWS. Either way the JWS wins: a record whose fields contradict its own signed
/// transaction is rejected.
public enum RestoreEntry: Sendable, Hashable {
    /// A cached record, with `signedTransaction` when the device has it.
    case record(TransactionRecord)
    /// Only the compact JWS of a StoreKit 2 transaction (`jwsRepresentation`).
    case signedTransaction(String)

    /// The signed transaction the entry carries, if any.
    public var signedTransaction: String? {
        switch self {
        case .record(let record): record.signedTransaction
        case .signedTransaction(let jws): jws
        }
    }

    /// The cached record, `nil` for an entry that is only a signed transaction.
    public var record: TransactionRecord? {
        guard case .record(let record) = self else { return nil }
        return record
    }
}

/// The wire form: an object that names no record field but `signedTransaction` is the signed
/// transaction alone (it must then be a string); any other object is a whole
/// ``StoreSyncCore/TransactionRecord``, whose missing fields are named as such. Unknown keys
/// are ignored in both.
extension RestoreEntry: Codable {
    /// Decodes either form.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming `signedTransaction` for an entry with neither form, or
    ///   the record field that is missing or malformed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TransactionRecord.CodingKeys.self)
        if container.allKeys.allSatisfy({ $0 == .signedTransaction }) {
            self = .signedTransaction(try container.decode(String.self, forKey: .signedTransaction))
        } else {
            self = .record(try TransactionRecord(from: decoder))
        }
    }

    /// Encodes the record, or `{"signedTransaction": …}`.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: An error of the encoder.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .record(let record):
            try record.encode(to: encoder)
        case .signedTransaction(let jws):
            var container = encoder.container(keyedBy: TransactionRecord.CodingKeys.self)
            try container.encode(jws, forKey: .signedTransaction)
        }
    }
}
