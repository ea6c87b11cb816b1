/// Writes members into one object of the canonical tree; a repeated key keeps the last value.
struct CanonicalKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: CanonicalEncoder
    let object: CanonicalObject
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { object.set(key.stringValue, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { throw encoder.floatingPointError(value, key: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { throw encoder.floatingPointError(value, key: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(key.stringValue, .number(String(value))) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(key.stringValue, try encoder.box(value, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = CanonicalObject()
        object.set(key.stringValue, .object(nested))
        let nestedEncoder = encoder.child(at: key)
        nestedEncoder.value = .object(nested)
        return KeyedEncodingContainer(CanonicalKeyedContainer<NestedKey>(encoder: nestedEncoder, object: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = CanonicalArray()
        object.set(key.stringValue, .array(nested))
        let nestedEncoder = encoder.child(at: key)
        nestedEncoder.value = .array(nested)
        return CanonicalUnkeyedContainer(encoder: nestedEncoder, array: nested)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: CanonicalIndexKey(stringValue: "super")) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(forKey: key as any CodingKey) }

    private func superEncoder(forKey key: any CodingKey) -> any Encoder {
        let deferred = encoder.child(at: key)
        object.set(key.stringValue, .deferred(deferred))
        return deferred
    }
}

/// Appends elements to one array of the canonical tree.
struct CanonicalUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: CanonicalEncoder
    let array: CanonicalArray
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.elements.count }

    private var nextKey: CanonicalIndexKey { CanonicalIndexKey(intValue: count) }

    mutating func encodeNil() throws { array.elements.append(.null) }
    mutating func encode(_ value: Bool) throws { array.elements.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.elements.append(.string(value)) }
    mutating func encode(_ value: Double) throws { throw encoder.floatingPointError(value, key: nextKey) }
    mutating func encode(_ value: Float) throws { throw encoder.floatingPointError(value, key: nextKey) }
    mutating func encode(_ value: Int) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { array.elements.append(.number(String(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.elements.append(try encoder.box(value, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = CanonicalObject()
        let nestedEncoder = encoder.child(at: nextKey)
        nestedEncoder.value = .object(nested)
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(CanonicalKeyedContainer<NestedKey>(encoder: nestedEncoder, object: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = CanonicalArray()
        let nestedEncoder = encoder.child(at: nextKey)
        nestedEncoder.value = .array(nested)
        array.elements.append(.array(nested))
        return CanonicalUnkeyedContainer(encoder: nestedEncoder, array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let deferred = encoder.child(at: nextKey)
        array.elements.append(.deferred(deferred))
        return deferred
    }
}

/// Sets the single value of its encoder; encoding twice keeps the last value.
struct CanonicalSingleValueContainer: SingleValueEncodingContainer {
    let encoder: CanonicalEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.value = .null }
    mutating func encode(_ value: Bool) throws { encoder.value = .bool(value) }
    mutating func encode(_ value: String) throws { encoder.value = .string(value) }
    mutating func encode(_ value: Double) throws { throw encoder.floatingPointError(value) }
    mutating func encode(_ value: Float) throws { throw encoder.floatingPointError(value) }
    mutating func encode(_ value: Int) throws { encoder.value = .number(String(value)) }
    mutating func encode(_ value: Int8) throws { encoder.value = .number(String(value)) }
    mutating func encode(_ value: Int16) throws { encoder.value = .number(String(value)) }
    mutating func encode(_ value: Int32) throws { encoder.value = .number(String(value)) }
    mutating func encode(_ value: Int64) throws { encoder.value = .number(String(value)) }
    mutating func encode(_ value: UInt) throws { encoder.value = .number(String(value)) }
    mutating func encode(_ value: UInt8) throws { encoder.value = .number(String(value)) }
    mutating func encode(_ value: UInt16) throws { encoder.value = .number(String(value)) }
    mutating func encode(_ value: UInt32) throws { encoder.value = .number(String(value)) }
    mutating func encode(_ value: UInt64) throws { encoder.value = .number(String(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws { encoder.value = try encoder.box(value) }
}

/// Coding keys for array positions and `super`, which no `CodingKeys` enum provides.
struct CanonicalIndexKey: CodingKey {
    private let name: String?
    let intValue: Int?

    var stringValue: String { name ?? "Index \(intValue ?? 0)" }

    init(stringValue: String) {
        name = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        name = nil
        self.intValue = intValue
    }
}
