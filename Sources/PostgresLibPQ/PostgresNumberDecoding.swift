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
