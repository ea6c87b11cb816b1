/// Why Apple's signed payload could not be read into StoreSync's types.
public enum PayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not of Apple's form: bad base64url, bad JSON, a wrongly typed or missing field.
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let detail): "malformed signed data: \(detail)"
        }
    }
}
