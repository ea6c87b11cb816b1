import Foundation

/// One App Store Server API request, before its token is added.
struct AppStoreServerAPIRequest: Sendable {
    /// Characters Apple's ids and tokens are made of; anything else is refused unsent, so a
    /// caller's text can never change the path it is put into.
    private static let idCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-".utf8)
    /// Apple's ids are far shorter; the bound keeps hostile input out of the URL.
    private static let maximumIdLength = 128

    /// The two methods the App Store Server API's read endpoints use.
    enum Method: Sendable {
        case get
        case post
    }

    /// The name of the endpoint, for logs (`transaction history`).
    var endpoint: String
    var method: Method
    /// The path below the base URL, starting with `/`.
    var path: String
    var query: [(name: String, value: String)] = []
    /// A JSON body, for POST.
    var body: Data?

    /// Checks an id that goes into a path or body.
    ///
    /// - Parameters:
    ///   - value: The id.
    ///   - name: What it is, for the error (`transactionId`).
    /// - Returns: The id, unchanged.
    /// - Throws: ``AppStoreServerAPIError/invalidArgument(_:)`` when it is empty, too long, or
    ///   has a character outside letters, digits, `.`, `_` and `-`.
    static func id(_ value: String, name: String) throws(AppStoreServerAPIError) -> String {
        guard !value.isEmpty, value.utf8.count <= maximumIdLength, value.utf8.allSatisfy(idCharacters.contains) else {
            throw .invalidArgument(
                "\(name) must be 1 to \(maximumIdLength) letters, digits, '.', '_' or '-'")
        }
        return value
    }

    /// The full URL under `baseURL`, query values percent-encoded.
    func url(under baseURL: URL) -> String {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard !query.isEmpty else { return base + path }
        let pairs = query.map { name, value in
            name + "=" + (value.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? "")
        }
        return base + path + "?" + pairs.joined(separator: "&")
    }

    /// RFC 3986 unreserved characters: everything else in a token (`+`, `/`, `=`) is escaped.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
