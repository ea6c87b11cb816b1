import AppStorePayloads
import Foundation

/// One element of a stored outbox, read even when another version of this library wrote it.
///
/// An outbox holds purchases the server has not acknowledged yet, whose transactions StoreKit
/// was already told to finish: losing an element loses the purchase. So an element that does
/// not decode as this version's ``OutboxEntry`` (an app update changed the layout, or a cache
/// shared through iCloud is written by two versions of the app) is read again from what an
/// entry cannot do without, its signed transaction: the rest (ids, product) follows from the
/// JWS, and the entry is due at once.
struct StoredOutboxEntry: ListElement {
    /// The entry; `nil` when the element holds no signed transaction this version can read.
    let entry: OutboxEntry?

    var element: OutboxEntry? { entry }

    init(from decoder: any Decoder) throws {
        if let entry = try? OutboxEntry(from: decoder) {
            self.entry = entry
        } else if let kept = try? SignedTransactionOnly(from: decoder),
            let record = try? UnverifiedJWS.transaction(kept.signedTransaction)
        {
            entry = OutboxEntry(record: record, signedTransaction: kept.signedTransaction, at: .distantPast)
        } else {
            entry = nil
        }
    }

    private struct SignedTransactionOnly: Decodable {
        let signedTransaction: String
    }
}
