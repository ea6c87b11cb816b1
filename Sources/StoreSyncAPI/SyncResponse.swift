public import Foundation

/// The answer to an upload or a restore: a verdict per presented item and the new snapshot.
public struct SyncResponse: Sendable, Hashable, Codable {
    /// One verdict per presented transaction or legacy flag, in request order.
    public var verdicts: [Verdict]
    /// The account's signed snapshot after the change.
    public var snapshot: Snapshot

    /// Creates a sync response.
    ///
    /// - Parameters:
    ///   - verdicts: One per presented transaction or legacy flag.
    ///   - snapshot: The account's signed snapshot after the change.
    public init(verdicts: [Verdict], snapshot: Snapshot) {
        self.verdicts = verdicts
        self.snapshot = snapshot
    }
}

extension SyncResponse {
    /// A sync response's JSON made from a signed snapshot's body, without encoding the
    /// snapshot a second time (it is most of a large restore's answer).
    ///
    /// - Parameters:
    ///   - verdicts: One per presented item, in request order.
    ///   - snapshotBody: The signed snapshot's JSON (``Snapshot/body(signedBytes:signature:)``).
    /// - Returns: JSON that decodes to a ``SyncResponse`` with these verdicts and that snapshot.
    /// - Throws: An error of the encoder (verdicts hold no dates, so none in practice).
    public static func body(verdicts: [Verdict], snapshotBody: Data) throws -> Data {
        let encodedVerdicts = try StoreSyncJSON.makeEncoder().encode(verdicts)
        var body = Data(capacity: snapshotBody.count + encodedVerdicts.count + 32)
        body.append(contentsOf: #"{"snapshot":"#.utf8)
        body.append(snapshotBody)
        body.append(contentsOf: #","verdicts":"#.utf8)
        body.append(encodedVerdicts)
        body.append(UInt8(ascii: "}"))
        return body
    }
}
