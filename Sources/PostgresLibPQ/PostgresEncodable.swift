/// A Swift value that can be bound as a query parameter.
///
/// Values are sent in PostgreSQL's binary format together with their type OID. Conform an
/// enum with a `String` or integer raw value by declaring `extension MyEnum: PostgresEncodable {}`.
public protocol PostgresEncodable: Sendable {
    /// The PostgreSQL type the value is sent as.
    static var postgresType: PostgresDataType { get }

    /// Whether the value is SQL NULL (only `Optional.none` is).
    var isPostgresNull: Bool { get }

    /// Appends the value's binary representation.
    ///
    /// - Parameter buffer: The buffer to append to; not called for NULL.
    func encode(into buffer: inout [UInt8])
}

extension PostgresEncodable {
    /// Values are not NULL unless they say so.
    public var isPostgresNull: Bool { false }
}

extension PostgresEncodable where Self: RawRepresentable, RawValue: PostgresEncodable {
    /// The raw value's type.
    public static var postgresType: PostgresDataType { RawValue.postgresType }

    /// Appends the raw value's encoding.
    ///
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        rawValue.encode(into: &buffer)
    }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    /// The wrapped type, so a NULL parameter is still typed.
    public static var postgresType: PostgresDataType { Wrapped.postgresType }

    /// `true` for `nil`.
    public var isPostgresNull: Bool {
        switch self {
        case .none: return true
        case .some(let wrapped): return wrapped.isPostgresNull
        }
    }

    /// Appends the wrapped value's encoding; nothing for `nil`.
    ///
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        if case .some(let wrapped) = self {
            wrapped.encode(into: &buffer)
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends an integer in network byte order, as PostgreSQL's binary formats want.
    mutating func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
