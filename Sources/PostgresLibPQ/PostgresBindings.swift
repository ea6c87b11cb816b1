/// The parameters of a query: each value's type and its binary encoding, in `$n` order.
///
/// All values share one byte buffer, so binding a query costs one allocation however many
/// parameters it has.
public struct PostgresBindings: Sendable, Hashable {
    /// The encoded values, back to back.
    var bytes: [UInt8] = []
    /// Where each value starts in ``bytes``.
    var offsets: [Int] = []
    /// Each value's length in bytes, or -1 for NULL.
    var lengths: [Int32] = []
    /// Each value's type OID.
    var types: [UInt32] = []

    /// Creates an empty list.
    public init() {}

    /// How many parameters are bound.
    public var count: Int { types.count }

    /// Appends a value as the next parameter.
    ///
    /// - Parameter value: The value; an `Optional` that is `nil` binds NULL of the wrapped type.
    public mutating func append<Value: PostgresEncodable>(_ value: Value) {
        types.append(Value.postgresType.oid)
        let start = bytes.count
        offsets.append(start)
        if value.isPostgresNull {
            lengths.append(-1)
        } else {
            value.encode(into: &bytes)
            lengths.append(Int32(clamping: bytes.count - start))
        }
    }
}
