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

/// Decoding shared by the integer and floating-point conformances.
enum PostgresNumberDecoding {
    static func integer(_ bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws -> Int64 {
        switch type {
        case .int8:
            try bytes.requireCount(8, for: type)
            return bytes.readBigEndian(at: 0, as: Int64.self)
        case .int4:
            try bytes.requireCount(4, for: type)
            return Int64(bytes.readBigEndian(at: 0, as: Int32.self))
        case .int2:
            try bytes.requireCount(2, for: type)
            return Int64(bytes.readBigEndian(at: 0, as: Int16.self))
        case .numeric:
            return try numericAsInteger(bytes)
        default:
            throw PostgresDecodingError.Reason.typeMismatch
        }
    }

    /// The parts of a binary `numeric`: base-10000 digits, the weight of the first digit, the sign.
    private struct Numeric {
        var digits: [Int16]
        var weight: Int
        var sign: UInt16

        static let positive: UInt16 = 0x0000, negative: UInt16 = 0x4000, nan: UInt16 = 0xC000
        static let positiveInfinity: UInt16 = 0xD000, negativeInfinity: UInt16 = 0xF000

        init(_ bytes: UnsafeRawBufferPointer) throws {
            guard bytes.count >= 8 else { throw PostgresDecodingError.Reason.malformedValue("numeric header too short") }
            let count = Int(bytes.readBigEndian(at: 0, as: Int16.self))
            guard count >= 0, bytes.count == 8 + 2 * count else {
                throw PostgresDecodingError.Reason.malformedValue("numeric digit count does not match its length")
            }
            weight = Int(bytes.readBigEndian(at: 2, as: Int16.self))
            sign = bytes.readBigEndian(at: 4, as: UInt16.self)
            digits = (0..<count).map { bytes.readBigEndian(at: 8 + 2 * $0, as: Int16.self) }
        }
    }

    static func numericAsInteger(_ bytes: UnsafeRawBufferPointer) throws -> Int64 {
        let numeric = try Numeric(bytes)
        guard numeric.sign == Numeric.positive || numeric.sign == Numeric.negative else {
            throw PostgresDecodingError.Reason.malformedValue("numeric NaN or infinity is not an integer")
        }
        var magnitude: Int64 = 0
        for (index, digit) in numeric.digits.enumerated() {
            let power = numeric.weight - index
            guard power >= 0 else {
                guard digit == 0 else { throw PostgresDecodingError.Reason.malformedValue("numeric has a fraction") }
                continue
            }
            var term = Int64(digit)
            for _ in 0..<power {
                let (scaled, overflow) = term.multipliedReportingOverflow(by: 10_000)
                guard !overflow else { throw PostgresDecodingError.Reason.malformedValue("numeric out of range for Int64") }
                term = scaled
            }
            let (sum, overflow) = magnitude.addingReportingOverflow(term)
            guard !overflow else { throw PostgresDecodingError.Reason.malformedValue("numeric out of range for Int64") }
            magnitude = sum
        }
        return numeric.sign == Numeric.negative ? -magnitude : magnitude
    }

    static func numericAsDouble(_ bytes: UnsafeRawBufferPointer) throws -> Double {
        let numeric = try Numeric(bytes)
        switch numeric.sign {
        case Numeric.nan: return .nan
        case Numeric.positiveInfinity: return .infinity
        case Numeric.negativeInfinity: return -.infinity
        default: break
        }
        var value = 0.0
        for (index, digit) in numeric.digits.enumerated() {
            value += Double(digit) * pow10000(numeric.weight - index)
        }
        return numeric.sign == Numeric.negative ? -value : value
    }

    private static func pow10000(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(exponent) { result *= 10_000 }
        return exponent >= 0 ? result : 1 / result
    }
}
