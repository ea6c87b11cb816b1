import Foundation
import StoreSyncCore

/// Decodes the JSON parts of signed data, turning every decoding failure into a
/// ``PayloadError/malformed(_:)`` that names the field.
package enum PayloadDecoder {
    /// Decodes one JSON document; Apple's dates are milliseconds since 1970.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - bytes: UTF-8 JSON.
    ///   - part: What the bytes are, for the message (`header`, `payload`).
    /// - Returns: The decoded value.
    /// - Throws: ``PayloadError/malformed(_:)`` naming the failing field.
    package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], part: String) throws(PayloadError) -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            throw .malformed("\(part): \(error.fieldDescription)")
        } catch {
            throw .malformed("\(part): not valid JSON")
        }
    }
}

extension DecodingError {
    /// A short account of what failed and where, without echoing the input.
    package var fieldDescription: String {
        switch self {
        case .typeMismatch(let type, let context):
            "\(Self.path(context.codingPath)) has the wrong type (expected \(type))"
        case .valueNotFound(let type, let context):
            "\(Self.path(context.codingPath)) is null (expected \(type))"
        case .keyNotFound(let key, let context):
            "\(Self.path(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? "not valid JSON" : "\(Self.path(context.codingPath)) is invalid"
        @unknown default:
            "cannot be decoded"
        }
    }

    /// The dotted path of the field, e.g. `data.signedTransactionInfo`, or `the document`.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.fieldPath(topLevel: "the document")
    }
}
