import HTTPTypes
import Hummingbird

/// Returns the request id that every log line of the request carries (`X-Request-Id`), so a
/// client's report can be matched to the server's logs; binds it for the request's tasks
/// (``RequestLogMetadata``) so lines of every logger carry it.
///
/// A trusted proxy's own `X-Request-Id` (``TrustedProxies``) is kept, so a request is followed
/// from the load balancer's log into the server's; from anyone else, and when it is not a short
/// token of letters, digits and `.`, `_`, `:`, `-` (log lines must not carry what a client
/// wrote), the server's own id is used.
struct RequestIdMiddleware: RouterMiddleware {
    typealias Context = StoreSyncRequestContext

    let trustedProxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = proxysId(of: request, context: context) ?? context.id
        var response = try await RequestLogMetadata.$requestId.withValue(id) {
            try await next(request, context)
        }
        response.headers[.requestId] = id
        return response
    }

    /// The id a trusted proxy gave the request, when it is one a log line may carry.
    private func proxysId(of request: Request, context: Context) -> String? {
        guard !trustedProxies.isEmpty, let given = request.headers[.requestId], Self.isToken(given),
            trustedProxies.trusts(peer: context.remoteAddress?.ipAddress)
        else { return nil }
        return given
    }

    /// 1 to 128 ASCII letters, digits, `.`, `_`, `:` or `-`.
    static func isToken(_ text: String) -> Bool {
        (1...128).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
                    UInt8(ascii: "-"):
                    true
                default:
                    false
                }
            }
    }
}

extension HTTPField.Name {
    static let requestId = HTTPField.Name("X-Request-Id")!
}
