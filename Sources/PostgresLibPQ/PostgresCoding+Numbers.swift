// Binary encodings of bool, the integers and float8, and decoding of numeric.

extension Bool: PostgresEncodable, PostgresDecodable {
    /// `bool`.
    public static var postgresType: PostgresDataType { .bool }

    /// One byte, 1 or 0.
    ///
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        buffer.append(self ? 1 : 0)
    }

    /// Decodes a `bool` column.
    ///
    /// - Parameters:
    ///   - bytes: One byte.
    ///   - type: Must be `bool`.
    /// - Throws: ``PostgresDecodingError/Reason`` for another type or length.
    public init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws {
        guard type == .bool else { throw PostgresDecodingError.Reason.typeMismatch }
        try bytes.requireCount(1, for: type)
        self = bytes[0] != 0
    }
}

extension Int64: PostgresEncodable, PostgresDecodable {
    /// `int8`.
    public static var postgresType: PostgresDataType { .int8 }

    /// Eight bytes, big-endian.
    ///
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        buffer.appendBigEndian(self)
    }

    /// Decodes any integer column, or an integral `numeric`.
    ///
    /// - Parameters:
    ///   - bytes: The value.
    ///   - type: `int2`, `int4`, `int8` or `numeric`.
    /// - Throws: ``PostgresDecodingError/Reason`` for another type, a fraction, or overflow.
    public init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws {
        self = try PostgresNumberDecoding.integer(bytes, type: type)
    }
}

extension Int: PostgresEncodable, PostgresDecodable {
    /// `int8`.
    public static var postgresType: PostgresDataType { .int8 }

    /// Eight bytes, big-endian.
    ///
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        buffer.appendBigEndian(Int64(self))
    }

    /// Decodes any integer column, or an integral `numeric`.
    ///
    /// - Parameters:
    ///   - bytes: The value.
    ///   - type: `int2`, `int4`, `int8` or `numeric`.
    /// - Throws: ``PostgresDecodingError/Reason`` for another type, a fraction, or overflow.
    public init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws {
        guard let value = Int(exactly: try PostgresNumberDecoding.integer(bytes, type: type)) else {
            throw PostgresDecodingError.Reason.malformedValue("out of range for Int")
        }
        self = value
    }
}

extension Int32: PostgresEncodable, PostgresDecodable {
    /// `int4`.
    public static var postgresType: PostgresDataType { .int4 }

    /// Four bytes, big-endian.
    ///
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        buffer.appendBigEndian(self)
    }

    /// Decodes any integer column whose value fits 32 bits.
    ///
    /// - Parameters:
    ///   - bytes: The value.
    ///   - type: `int2`, `int4`, `int8` or `numeric`.
    /// - Throws: ``PostgresDecodingError/Reason`` for another type or a value that does not fit.
    public init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws {
        guard let value = Int32(exactly: try PostgresNumberDecoding.integer(bytes, type: type)) else {
            throw PostgresDecodingError.Reason.malformedValue("out of range for Int32")
        }
        self = value
    }
}

extension Double: PostgresEncodable, PostgresDecodable {
    /// `float8`.
    public static var postgresType: PostgresDataType { .float8 }

    /// The IEEE 754 bits, big-endian; NaN and the infinities round-trip.
    ///
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        buffer.appendBigEndian(bitPattern)
    }

    /// Decodes `float8`, `float4`, `numeric` or an integer column.
    ///
    /// - Parameters:
    ///   - bytes: The value.
    ///   - type: A numeric type.
    /// - Throws: ``PostgresDecodingError/Reason`` for another type or a malformed value.
    public init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws {
        switch type {
        case .float8:
            try bytes.requireCount(8, for: type)
            self = Double(bitPattern: bytes.readBigEndian(at: 0, as: UInt64.self))
        case .float4:
            try bytes.requireCount(4, for: type)
            self = Double(Float(bitPattern: bytes.readBigEndian(at: 0, as: UInt32.self)))
        case .numeric:
            self = try PostgresNumberDecoding.numericAsDouble(bytes)
        case .int2, .int4, .int8:
            self = Double(try PostgresNumberDecoding.integer(bytes, type: type))
        default:
            throw PostgresDecodingError.Reason.typeMismatch
        }
    }
}
