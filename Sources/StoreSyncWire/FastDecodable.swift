package import AppStorePayloads

/// A signed payload the verifier may read without `JSONDecoder`.
///
/// The verifier asks ``fastDecoded(from:)`` first and decodes with ``PayloadDecoder`` whatever
/// it leaves, so `JSONDecoder` alone decides what is refused and how.
package protocol FastDecodable: Decodable {
    /// The payload read exactly as `JSONDecoder` would read it, when it is in the plain form a
    /// fast reader knows.
    ///
    /// - Parameter bytes: The payload's UTF-8 JSON.
    /// - Returns: The payload, or `nil` to decode it with ``PayloadDecoder``.
    static func fastDecoded(from bytes: [UInt8]) -> Self?
}

extension FastDecodable {
    /// No fast reader: ``PayloadDecoder`` decodes every payload of this kind.
    package static func fastDecoded(from bytes: [UInt8]) -> Self? { nil }
}

extension RenewalInfoPayload: FastDecodable {}

extension NotificationPayload: FastDecodable {}
