/// A Swift value that can be decoded from a result column.
///
/// Results arrive in PostgreSQL's binary format. Conform an enum with a `String` or integer raw
/// value by declaring `extension MyEnum: PostgresDecodable {}`.
public protocol PostgresDecodable: Sendable {
    /// Decodes a non-NULL value.
    ///
    /// - Parameters:
    ///   - bytes: The value in binary format; valid only during the call.
    ///   - type: The column's PostgreSQL type.
    /// - Throws: ``PostgresDecodingError/Reason`` when the type does not fit or the bytes are malformed.
    init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws

    /// The value for SQL NULL.
    ///
    /// - Returns: The value standing for NULL (`nil` for an `Optional`).
    /// - Throws: ``PostgresDecodingError/Reason/unexpectedNull`` for every type that has no NULL.
    static func postgresNull() throws -> Self
}

extension PostgresDecodable {
    /// NULL is an error unless the target type is an `Optional`.
    ///
    /// - Returns: Never.
    /// - Throws: ``PostgresDecodingError/Reason/unexpectedNull``.
    @inlinable
    public static func postgresNull() throws -> Self {
        throw PostgresDecodingError.Reason.unexpectedNull
    }
}

extension PostgresDecodable where Self: RawRepresentable, RawValue: PostgresDecodable {
    /// Decodes the raw value, then the case it names.
    ///
    /// - Parameters:
    ///   - bytes: The value in binary format.
    ///   - type: The column's PostgreSQL type.
    /// - Throws: ``PostgresDecodingError/Reason/malformedValue(_:)`` when no case has that raw value.
    @inlinable
    public init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws {
        let raw = try RawValue(postgresBytes: bytes, type: type)
        guard let value = Self(rawValue: raw) else {
            throw PostgresDecodingError.Reason.malformedValue("no case of \(Self.self) has the raw value \(raw)")
        }
        self = value
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    /// Decodes the wrapped value.
    ///
    /// - Parameters:
    ///   - bytes: The value in binary format.
    ///   - type: The column's PostgreSQL type.
    /// - Throws: What the wrapped type throws.
    @inlinable
    public init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws {
        self = .some(try Wrapped(postgresBytes: bytes, type: type))
    }

    /// NULL decodes as `nil`.
    ///
    /// - Returns: `nil`.
    @inlinable
    public static func postgresNull() -> Self { nil }
}

extension UnsafeRawBufferPointer {
    /// Reads a network-byte-order integer at `offset`; the caller has checked the length.
    func readBigEndian<Integer: FixedWidthInteger>(at offset: Int, as type: Integer.Type) -> Integer {
        Integer(bigEndian: loadUnaligned(fromByteOffset: offset, as: Integer.self))
    }

    /// Throws unless the value is exactly `count` bytes long.
    func requireCount(_ count: Int, for type: PostgresDataType) throws {
        guard self.count == count else {
            throw PostgresDecodingError.Reason.malformedValue("\(type) value of \(self.count) bytes, expected \(count)")
        }
    }
}
