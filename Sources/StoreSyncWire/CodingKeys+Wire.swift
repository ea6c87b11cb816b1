import AppStorePayloads
import StoreSyncAPI
import StoreSyncCore

// The wire names of every payload a fast reader reads or a writer writes, each derived once
// from the payload's own `CodingKeys`.

extension RestoreRequest.CodingKeys {
    static let wire = WireKeys<Self>()
}

extension TransactionRecord.CodingKeys {
    static let wire = WireKeys<Self>()
}

extension TransactionPayload.CodingKeys {
    static let wire = WireKeys<Self>()
}

extension Snapshot.CodingKeys {
    static let wire = WireKeys<Self>()
}

extension Entitlement.CodingKeys {
    static let wire = WireKeys<Self>()
}

extension SyncResponse.CodingKeys {
    static let wire = WireKeys<Self>()
}

extension Verdict.CodingKeys {
    static let wire = WireKeys<Self>()
}
