import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import StoreSyncServer

@Suite struct RequestHeaderParsingTests {
    private func request(authorization: String?) -> Request {
        var fields = HTTPFields()
        if let authorization { fields[.authorization] = authorization }
        let head = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/v1/entitlements", headerFields: fields)
        return Request(head: head, body: RequestBody(buffer: ByteBuffer()))
    }

    @Test(arguments: [
        ("Bearer abc.DEF-123_x", "abc.DEF-123_x"),
        ("bearer abc", "abc"),
        ("BEARER abc", "abc"),
        ("Bearer   abc \t", "abc"),
        ("Bearer\tabc", nil),
        ("Bearer ", nil),
        ("Bearer    ", nil),
        ("Bearerabc", nil),
        ("Basic YWxhZGRpbjpvcGVuc2VzYW1l", nil),
        ("Bearxr abc", nil),
        ("", nil),
    ] as [(String, String?)])
    func theBearerTokenIsReadCaseInsensitivelyAndTrimmed(header: String, token: String?) {
        #expect(request(authorization: header).bearerToken == token)
    }

    @Test func noAuthorizationHeaderHasNoToken() {
        #expect(request(authorization: nil).bearerToken == nil)
    }

    @Test(arguments: [
        (Duration.microseconds(1_234_567), "1234.567"),
        (.microseconds(5), "0.005"),
        (.microseconds(40), "0.040"),
        (.milliseconds(3), "3.000"),
        (.nanoseconds(999), "0.000"),
        (.seconds(2), "2000.000"),
    ])
    func serverTimingWritesMillisecondsWithThreeDecimals(elapsed: Duration, text: String) {
        #expect(ServerTimingMiddleware<StoreSyncRequestContext>.milliseconds(elapsed) == text)
    }
}
