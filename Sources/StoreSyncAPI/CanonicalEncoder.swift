import Foundation
import StoreSyncCore

/// The `Encoder` behind ``CanonicalJSON``: it records one value as a ``CanonicalValue`` tree.
final class CanonicalEncoder: Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any] = [:]
    /// What the value encoded so far; `nil` until it asks for a container.
    var value: CanonicalValue?

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: CanonicalObject
        if case .object(let existing) = value {
            object = existing
        } else {
            object = CanonicalObject()
            value = .object(object)
        }
        return KeyedEncodingContainer(CanonicalKeyedContainer<Key>(encoder: self, object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: CanonicalArray
        if case .array(let existing) = value {
            array = existing
        } else {
            array = CanonicalArray()
            value = .array(array)
        }
        return CanonicalUnkeyedContainer(encoder: self, array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        CanonicalSingleValueContainer(encoder: self)
    }

    /// Encodes a nested value at `codingPath + [key]`, intercepting the types whose own
    /// `encode(to:)` would not be canonical.
    func box<T: Encodable>(_ value: T, key: (any CodingKey)? = nil) throws -> CanonicalValue {
        let path = key.map { codingPath + [$0] } ?? codingPath
        switch value {
        case let date as Date:
            guard let text = RFC3339Timestamp.string(from: date) else {
                throw EncodingError.invalidValue(date, .init(
                    codingPath: path, debugDescription: "Dates must fall within years 0001–9999"))
            }
            return .string(text)
        case let data as Data:
            return .string(data.base64EncodedString())
        case let url as URL:
            return .string(url.absoluteString)
        default:
            let encoder = CanonicalEncoder(codingPath: path)
            try value.encode(to: encoder)
            return encoder.value ?? .object(CanonicalObject())
        }
    }

    func floatingPointError(_ value: Any, key: (any CodingKey)? = nil) -> EncodingError {
        EncodingError.invalidValue(value, .init(
            codingPath: key.map { codingPath + [$0] } ?? codingPath,
            debugDescription: "Canonical JSON has no floating-point numbers; encode an integer or a string"))
    }
}
