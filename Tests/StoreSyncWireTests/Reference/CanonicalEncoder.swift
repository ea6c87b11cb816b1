import Foundation
import StoreSyncCore

/// The `Encoder` behind ``CanonicalJSON``: it records one value as a ``CanonicalValue`` tree.
final class CanonicalEncoder: Encoder {
    /// The encoder of the enclosing value and this value's key in it; the coding path is built
    /// from them only when asked for (an error, or a type that reads it).
    private let parent: CanonicalEncoder?
    private let key: (any CodingKey)?
    let userInfo: [CodingUserInfoKey: Any] = [:]
    /// What the value encoded so far; `nil` until it asks for a container.
    var value: CanonicalValue?

    /// The encoder of a top-level value.
    convenience init() { self.init(parent: nil, key: nil) }

    /// The encoder of the value at `key` inside `parent`'s value.
    init(parent: CanonicalEncoder?, key: (any CodingKey)?) {
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: CanonicalEncoder? = self
        while let current = encoder {
            if let key = current.key { path.append(key) }
            encoder = current.parent
        }
        return path.reversed()
    }

    /// An encoder for the value at `key` (an array position when `key` is an index key).
    func child(at key: any CodingKey) -> CanonicalEncoder {
        CanonicalEncoder(parent: self, key: key)
    }

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
        switch value {
        case let date as Date:
            guard let text = RFC3339Timestamp.string(from: date) else {
                throw EncodingError.invalidValue(date, .init(
                    codingPath: codingPath + (key.map { [$0] } ?? []),
                    debugDescription: "Dates must fall within years 0001–9999"))
            }
            return .string(text)
        case let data as Data:
            return .string(data.base64EncodedString())
        case let url as URL:
            return .string(url.absoluteString)
        default:
            let encoder = key.map(child(at:)) ?? CanonicalEncoder(parent: parent, key: self.key)
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
