public import Foundation

/// A type whose one-dimensional arrays can be bound and decoded (`text[]`, `int8[]`, `uuid[]` …).
public protocol PostgresArrayElement: PostgresEncodable, PostgresDecodable {
    /// The PostgreSQL array type whose elements are ``PostgresEncodable/postgresType``.
    static var postgresArrayType: PostgresDataType { get }
}

extension String: PostgresArrayElement {
    /// `text[]`.
    public static var postgresArrayType: PostgresDataType { .textArray }
}

extension Int64: PostgresArrayElement {
    /// `int8[]`.
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1016) }
}

extension Int: PostgresArrayElement {
    /// `int8[]`.
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1016) }
}

extension Int32: PostgresArrayElement {
    /// `int4[]`.
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1007) }
}

extension Bool: PostgresArrayElement {
    /// `bool[]`.
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1000) }
}

extension Double: PostgresArrayElement {
    /// `float8[]`.
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1022) }
}

extension UUID: PostgresArrayElement {
    /// `uuid[]`.
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 2951) }
}

extension Date: PostgresArrayElement {
    /// `timestamptz[]`.
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1185) }
}

extension Data: PostgresArrayElement {
    /// `bytea[]`.
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1001) }
}

extension Optional: PostgresArrayElement where Wrapped: PostgresArrayElement {
    /// The wrapped type's array type: an array of optionals has NULL elements.
    public static var postgresArrayType: PostgresDataType { Wrapped.postgresArrayType }
}
