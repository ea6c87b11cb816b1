/// How one element of a cached list is read, so an element that cannot be read costs only
/// itself (``StoreSyncClient/readList(_:in:as:)``).
protocol ListElement: Decodable {
    associatedtype Element
    /// The element, or nil when this version cannot read it.
    var element: Element? { get }
}

/// An element read as it was written, or not at all.
struct Readable<Value: Decodable>: ListElement {
    let element: Value?

    init(from decoder: any Decoder) throws {
        element = try? Value(from: decoder)
    }
}
