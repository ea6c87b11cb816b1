public import Foundation
public import StoreSyncAPI

/// A response as a test sees it.
public struct TestResponse: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data

    /// The body decoded with StoreSync's JSON coder.
    ///
    /// - Parameter type: The expected body type.
    /// - Returns: The decoded body.
    /// - Throws: `DecodingError` when the body is not of that type.
    public func decode<Body: Decodable>(_ type: Body.Type) throws -> Body {
        try StoreSyncJSON.makeDecoder().decode(Body.self, from: body)
    }

    /// The problem details of an error response, if the body is one.
    public var problem: Problem? { try? decode(Problem.self) }

    /// A header, case-insensitively.
    ///
    /// - Parameter name: The header name.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}
