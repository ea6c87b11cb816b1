/// An RFC 9457 problem details body (`application/problem+json`), plus `field` naming the
/// offending input of a validation error.
public struct Problem: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The media type problem bodies are served with.
    public static let mediaType = "application/problem+json"

    /// The type URI; `about:blank` when the body had none, as RFC 9457 says.
    public var type: String
    /// A short summary of the kind of problem, the same for every occurrence.
    public var title: String
    /// The HTTP status code.
    public var status: Int
    /// What went wrong this time, for people.
    public var detail: String?
    /// A URI naming this occurrence.
    public var instance: String?
    /// The request field at fault, e.g. `entries[2].purchaseDate`.
    public var field: String?

    /// Creates a problem of one of StoreSync's types.
    ///
    /// - Parameters:
    ///   - type: The kind of problem; gives the type URI and title.
    ///   - status: The HTTP status; the type's own when `nil`.
    ///   - detail: What went wrong this time.
    ///   - instance: A URI naming this occurrence.
    ///   - field: The request field at fault.
    public init(_ type: ProblemType, status: Int? = nil, detail: String? = nil, instance: String? = nil, field: String? = nil) {
        self.init(type: type.uri, title: type.title, status: status ?? type.status, detail: detail, instance: instance, field: field)
    }

    /// Creates a problem from its raw members.
    ///
    /// - Parameters:
    ///   - type: The type URI.
    ///   - title: The short summary.
    ///   - status: The HTTP status.
    ///   - detail: What went wrong this time.
    ///   - instance: A URI naming this occurrence.
    ///   - field: The request field at fault.
    public init(type: String, title: String, status: Int, detail: String? = nil, instance: String? = nil, field: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
        self.field = field
    }

    enum CodingKeys: String, CodingKey {
        case type, title, status, detail, instance, field
    }

    /// Decodes a problem; a missing `type` reads as `about:blank` and a missing `title` as empty.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when `status` is missing or a member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            type: try container.decodeIfPresent(String.self, forKey: .type) ?? "about:blank",
            title: try container.decodeIfPresent(String.self, forKey: .title) ?? "",
            status: try container.decode(Int.self, forKey: .status),
            detail: try container.decodeIfPresent(String.self, forKey: .detail),
            instance: try container.decodeIfPresent(String.self, forKey: .instance),
            field: try container.decodeIfPresent(String.self, forKey: .field))
    }

    /// StoreSync's problem type, when ``type`` is one of its URIs.
    public var problemType: ProblemType? { ProblemType(uri: type) }

    /// `title (status): detail`.
    public var description: String {
        var text = "\(title) (\(status))"
        if let detail { text += ": \(detail)" }
        if let field { text += " [\(field)]" }
        return text
    }
}
