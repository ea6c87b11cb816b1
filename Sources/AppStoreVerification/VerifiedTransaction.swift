public import AppStorePayloads
public import StoreSyncCore

/// A signed transaction that passed verification: Apple's fields and StoreSync's record.
public struct VerifiedTransaction: Sendable, Hashable {
    /// Apple's payload as signed.
    public var payload: TransactionPayload
    /// The record: evidence `jws` (or `unverifiedJWS` under the development switch), with the
    /// JWS in ``StoreSyncCore/TransactionRecord/signedTransaction``.
    public var record: TransactionRecord

    /// Pairs a payload with its record.
    ///
    /// - Parameters:
    ///   - payload: Apple's payload.
    ///   - record: The StoreSync record.
    public init(payload: TransactionPayload, record: TransactionRecord) {
        self.payload = payload
        self.record = record
    }
}
