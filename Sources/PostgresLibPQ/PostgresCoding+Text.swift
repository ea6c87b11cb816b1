public import Foundation

extension String: PostgresEncodable, PostgresDecodable {
    /// `text`.
    public static var postgresType: PostgresDataType { .text }

    /// The UTF-8 bytes.
    ///
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        buffer.append(contentsOf: utf8)
    }

    /// Decodes `text`, `varchar`, `char(n)`, `name`, `json` or `jsonb`.
    ///
    /// - Parameters:
    ///   - bytes: UTF-8 text (jsonb: a version byte, then text).
    ///   - type: A textual type.
    /// - Throws: ``PostgresDecodingError/Reason`` for a non-textual type or invalid UTF-8.
    public init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws {
        var text = bytes
        if type == .jsonb {
            guard bytes.first == 1 else { throw PostgresDecodingError.Reason.malformedValue("unknown jsonb version") }
            text = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        } else if !type.isTextual {
            throw PostgresDecodingError.Reason.typeMismatch
        }
        let utf8 = text.bindMemory(to: UInt8.self)
        // Ids, product ids and enum names are ASCII, which needs no validation; the generic
        // validating initialiser cost more than the rest of a lookup row's decoding.
        if utf8.allSatisfy({ $0 < 0x80 }) {
            self = String(decoding: utf8, as: UTF8.self)
            return
        }
        guard let decoded = String(validating: utf8, as: UTF8.self) else {
            throw PostgresDecodingError.Reason.malformedValue("invalid UTF-8")
        }
        self = decoded
    }
}

extension Data: PostgresEncodable, PostgresDecodable {
    /// `bytea`.
    public static var postgresType: PostgresDataType { .bytea }

    /// The bytes, unchanged.
    ///
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        buffer.append(contentsOf: self)
    }

    /// Decodes a `bytea` column.
    ///
    /// - Parameters:
    ///   - bytes: The raw bytes.
    ///   - type: Must be `bytea`.
    /// - Throws: ``PostgresDecodingError/Reason/typeMismatch`` for another type.
    public init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws {
        guard type == .bytea else { throw PostgresDecodingError.Reason.typeMismatch }
        self = Data(bytes)
    }
}

extension UUID: PostgresEncodable, PostgresDecodable {
    /// `uuid`.
    public static var postgresType: PostgresDataType { .uuid }

    /// The sixteen bytes.
    ///
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        withUnsafeBytes(of: uuid) { buffer.append(contentsOf: $0) }
    }

    /// Decodes a `uuid` column.
    ///
    /// - Parameters:
    ///   - bytes: Sixteen bytes.
    ///   - type: Must be `uuid`.
    /// - Throws: ``PostgresDecodingError/Reason`` for another type or length.
    public init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws {
        guard type == .uuid else { throw PostgresDecodingError.Reason.typeMismatch }
        try bytes.requireCount(16, for: type)
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: bytes) }
        self = UUID(uuid: value)
    }
}
