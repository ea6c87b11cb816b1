import Foundation
import StoreSyncAPI

/// The reference definition of the deterministic JSON StoreSync's signatures cover, through the
/// generic `Codable` path; StoreSyncWire's hand-written writers are held byte-equal to it.
///
/// Equal values give identical bytes on every platform: object keys are sorted by their UTF-8
/// bytes (not by locale, case or `String`'s Unicode ordering), there is no whitespace, dates
/// are RFC 3339 UTC with milliseconds, `Data` is base64, integers are written as integers, and
/// strings are escaped minimally — `"` and `\`, `\b \f \n \r \t` for those controls, `\u00xx`
/// (lowercase hex) for the other controls below U+0020, every other character as its UTF-8
/// bytes. Floating-point numbers are rejected: their text form differs between platforms.
/// Optional properties that are `nil` are omitted, as synthesized `Codable` does.
enum CanonicalJSON {
    /// Encodes a value canonically.
    ///
    /// - Parameter value: The value.
    /// - Returns: The canonical UTF-8 JSON bytes.
    /// - Throws: `EncodingError.invalidValue` for a floating-point number, a date outside
    ///   years 0001–9999, or an error the value's own `encode(to:)` throws.
    static func encode(_ value: some Encodable) throws -> Data {
        try write(CanonicalEncoder().box(value))
    }

    /// What a snapshot's signature covers: the canonical JSON of its `Codable` form without the
    /// `signature` member.
    static func signedContent(of snapshot: Snapshot) throws -> Data {
        let root = try CanonicalEncoder().box(snapshot)
        guard case .object(let object) = root else { throw EncodingError.invalidValue(snapshot, .init(codingPath: [], debugDescription: "a snapshot encodes as an object")) }
        object.remove("signature")
        return write(root)
    }

    private static func write(_ root: CanonicalValue) -> Data {
        var bytes: [UInt8] = []
        root.write(to: &bytes)
        return Data(bytes)
    }
}
