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
    /// The verdicts are written by hand too (sorted keys, absent optionals left out, as
    /// ``StoreSyncJSON/makeEncoder()`` would): a thousand of them went through `JSONEncoder`
    /// in about as long as the rest of a known restore's answer took.
    ///
    /// - Parameters:
    ///   - verdicts: One per presented item, in request order.
    ///   - snapshotBody: The signed snapshot's JSON (``Snapshot/body(signedBytes:signature:)``).
    /// - Returns: JSON that decodes to a ``SyncResponse`` with these verdicts and that snapshot.
    public static func body(verdicts: [Verdict], snapshotBody: Data) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(snapshotBody.count + verdicts.count * 120 + 32)
        bytes.append(contentsOf: #"{"snapshot":"#.utf8)
        bytes.append(contentsOf: snapshotBody)
        bytes.append(contentsOf: #","verdicts":["#.utf8)
        for (index, verdict) in verdicts.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            verdict.appendJSON(to: &bytes)
        }
        bytes.append(contentsOf: "]}".utf8)
        return Data(bytes)
    }
}

extension Verdict {
    /// Appends the verdict as a JSON object, members in key order.
    fileprivate func appendJSON(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"originalTransactionId":"#.utf8)
        JSONString.append(originalTransactionId, to: &bytes)
        if let productId {
            bytes.append(contentsOf: #","productId":"#.utf8)
            JSONString.append(productId, to: &bytes)
        }
        if let reason {
            bytes.append(contentsOf: #","reason":"#.utf8)
            JSONString.append(reason, to: &bytes)
        }
        bytes.append(contentsOf: #","transactionId":"#.utf8)
        JSONString.append(transactionId, to: &bytes)
        bytes.append(contentsOf: #","verdict":"#.utf8)
        JSONString.append(verdict.rawValue, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }
}
