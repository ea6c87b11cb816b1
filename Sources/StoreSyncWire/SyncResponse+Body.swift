package import StoreSyncAPI

extension SyncResponse {
    /// A sync response's JSON, its snapshot signed where it is written
    /// (``Snapshot/body(signedBy:)``): a large restore's answer is one buffer, its snapshot
    /// neither copied nor encoded twice.
    ///
    /// The verdicts are written by hand too, as ``StoreSyncJSON/makeEncoder()`` writes them
    /// (sorted keys, absent optionals left out): a restore answers one per presented item.
    ///
    /// - Parameters:
    ///   - verdicts: One per presented item, in request order.
    ///   - snapshot: The account's snapshot; its own `signature` is not written.
    ///   - sign: Signs the snapshot's ``Snapshot/signedBytes()`` and answers base64 of the
    ///     signature; `nil` for an unsigned snapshot (a dry run's preview), written without a
    ///     `signature` member.
    /// - Returns: JSON that decodes to a ``SyncResponse`` with these verdicts and that snapshot.
    /// - Throws: What `sign` throws; `EncodingError` when a date falls outside years 0001–9999.
    package static func body(
        verdicts: [Verdict], snapshot: Snapshot, signedBy sign: ((UnsafeRawBufferPointer) throws -> String)?
    ) throws -> [UInt8] {
        var writer = CanonicalJSONWriter(capacity: snapshot.bodyCapacity + verdicts.count * 120 + 32)
        var object = writer.startObject(CodingKeys.wire)
        for (key, index) in object.keys.canonicalOrder {
            writer.member(index, in: &object)
            switch key {
            case .snapshot:
                if let sign {
                    try writer.writeSigned(snapshot, signedBy: sign)
                } else {
                    try writer.writeSignedContent(of: snapshot)
                }
            case .verdicts: try writer.array(verdicts) { try $0.write($1) }
            }
        }
        writer.endObject(object)
        return writer.bytes
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
