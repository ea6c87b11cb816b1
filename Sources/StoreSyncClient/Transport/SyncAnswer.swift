import Foundation
import StoreSyncAPI

/// An upload's or a restore's answer, and the ETag the server gives its snapshot: kept with
/// the snapshot, the next refresh names it, so no cache or standby answers with less.
struct SyncAnswer: Sendable {
    /// The verdicts, and the snapshot decoded from ``snapshotBytes`` when they are at hand.
    let response: SyncResponse
    /// The snapshot's JSON exactly as it came inside the answer: what its signature covers,
    /// and what the cache keeps. `nil` when it could not be located in the body, in which case
    /// the snapshot is checked over its canonical bytes and cached encoded again.
    let snapshotBytes: Data?
    let etag: String?

    /// The answer's verdicts, read from its body with `null` standing in the snapshot's place:
    /// the `snapshot` member must be there and hold exactly that, so the place set aside was
    /// the top-level snapshot's and nothing else's.
    struct Verdicts: Decodable {
        let verdicts: [Verdict]

        private enum CodingKeys: String, CodingKey {
            case verdicts, snapshot
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard try container.decodeNil(forKey: .snapshot) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .snapshot, in: container, debugDescription: "the snapshot's place does not hold the null put there")
            }
            verdicts = try container.decode([Verdict].self, forKey: .verdicts)
        }
    }
}
