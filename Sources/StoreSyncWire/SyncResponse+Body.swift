package import Foundation
package import StoreSyncAPI

extension SyncResponse {
    /// A sync response's JSON made from a signed snapshot's body, without encoding the
    /// snapshot a second time (it is most of a large restore's answer).
    ///
    /// The verdicts are written by hand too, as ``StoreSyncJSON/makeEncoder()`` writes them
    /// (sorted keys, absent optionals left out): a restore answers one per presented item.
    ///
    /// - Parameters:
    ///   - verdicts: One per presented item, in request order.
    ///   - snapshotBody: The signed snapshot's JSON (``Snapshot/body(signedBytes:signature:)``).
    /// - Returns: JSON that decodes to a ``SyncResponse`` with these verdicts and that snapshot.
    /// - Throws: `EncodingError` when a verdict's date falls outside years 0001–9999.
    package static func body(verdicts: [Verdict], snapshotBody: Data) throws -> Data {
        var writer = CanonicalJSONWriter(capacity: snapshotBody.count + verdicts.count * 120 + 32)
        var object = writer.startObject(CodingKeys.wire)
        for (key, index) in object.keys.canonicalOrder {
            switch key {
            case .snapshot: writer.member(index, json: snapshotBody, in: &object)
            case .verdicts: try writer.member(index, array: verdicts, in: &object) { try $0.write($1) }
            }
        }
        writer.endObject(object)
        return Data(writer.bytes)
    }
}

extension CanonicalJSONWriter {
    fileprivate mutating func write(_ verdict: Verdict) throws {
        var object = startObject(Verdict.CodingKeys.wire)
        for (key, index) in object.keys.canonicalOrder {
            switch key {
            case .originalTransactionId: member(index, string: verdict.originalTransactionId, in: &object)
            case .productId: member(index, string: verdict.productId, in: &object)
            case .reason: member(index, string: verdict.reason, in: &object)
            case .transactionId: member(index, string: verdict.transactionId, in: &object)
            case .verdict: member(index, string: verdict.verdict.rawValue, in: &object)
            case .movableAt: try member(index, date: verdict.movableAt, in: &object)
            }
        }
        endObject(object)
    }
}
