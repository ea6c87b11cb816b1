// PostgreSQL's binary array format: dimensions, a has-NULL flag, the element type, then for
// each dimension its length and lower bound, then each element as a length and its bytes.

extension Array: PostgresEncodable where Element: PostgresArrayElement {
    /// The element type's array type.
    public static var postgresType: PostgresDataType { Element.postgresArrayType }

    /// A one-dimensional array with lower bound 1 (zero dimensions when empty); `nil` elements
    /// of an array of optionals are NULL.
    ///
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        buffer.appendBigEndian(Int32(isEmpty ? 0 : 1))
        buffer.appendBigEndian(Int32(contains { $0.isPostgresNull } ? 1 : 0))
        buffer.appendBigEndian(Element.postgresType.oid)
        guard !isEmpty else { return }
        buffer.appendBigEndian(Int32(clamping: count))
        buffer.appendBigEndian(Int32(1))
        for element in self {
            guard !element.isPostgresNull else {
                buffer.appendBigEndian(Int32(-1))
                continue
            }
            let lengthPosition = buffer.count
            buffer.appendBigEndian(Int32(0))
            element.encode(into: &buffer)
            let length = Int32(clamping: buffer.count - lengthPosition - 4)
            Swift.withUnsafeBytes(of: length.bigEndian) { lengthBytes in
                buffer.replaceSubrange(lengthPosition..<lengthPosition + 4, with: lengthBytes)
            }
        }
    }
}

extension Array: PostgresDecodable where Element: PostgresArrayElement {
    /// Decodes a one-dimensional array; NULL elements only into an array of optionals.
    ///
    /// - Parameters:
    ///   - bytes: The array in binary format.
    ///   - type: An array type.
    /// - Throws: ``PostgresDecodingError/Reason`` for several dimensions, a NULL element of a
    ///   type without NULL, or elements that do not decode.
    public init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws {
        guard bytes.count >= 12 else { throw PostgresDecodingError.Reason.typeMismatch }
        let dimensions = bytes.readBigEndian(at: 0, as: Int32.self)
        let elementType = PostgresDataType(oid: bytes.readBigEndian(at: 8, as: UInt32.self))
        guard dimensions != 0 else {
            self = []
            return
        }
        guard dimensions == 1, bytes.count >= 20 else {
            throw PostgresDecodingError.Reason.malformedValue("only one-dimensional arrays decode, got \(dimensions) dimensions")
        }
        let count = Int(bytes.readBigEndian(at: 12, as: Int32.self))
        var elements: [Element] = []
        elements.reserveCapacity(Swift.max(0, Swift.min(count, bytes.count / 4)))
        var offset = 20
        for _ in 0..<Swift.max(0, count) {
            guard offset + 4 <= bytes.count else { throw PostgresDecodingError.Reason.malformedValue("array truncated") }
            let length = Int(bytes.readBigEndian(at: offset, as: Int32.self))
            offset += 4
            guard length >= 0 else {
                elements.append(try Element.postgresNull())
                continue
            }
            guard offset + length <= bytes.count else { throw PostgresDecodingError.Reason.malformedValue("array truncated") }
            let element = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
            elements.append(try Element(postgresBytes: element, type: elementType))
            offset += length
        }
        self = elements
    }
}
