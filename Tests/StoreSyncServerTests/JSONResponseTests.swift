import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
@testable import StoreSyncServer
import Testing

/// `Response.json`: a large body (a restore's answer for a long history) is sent in parts as
/// the connection drains; what arrives must be the body, byte for byte, with its length.
@Suite struct JSONResponseTests {
    /// Bytes whose every position differs from its neighbours', so a part sent twice, out of
    /// order or cut short shows.
    static func body(count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    }

    @Test(arguments: [0, 1, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 12_345])
    func everyBodyArrivesWholeWithItsLength(count: Int) async throws {
        let sent = Self.body(count: count)
        let router = Router()
        router.get("body") { _, _ in Response.json(sent, headers: [.eTag: "\"7\""]) }
        try await Application(router: router, logger: Logger(label: "JSONResponseTests", factory: { _ in SwiftLogNoOpLogHandler() })).test(.live) { client in
            try await client.execute(uri: "/body", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == String(count))
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.headers[.eTag] == "\"7\"")
                #expect(Array(response.body.readableBytesView) == sent)
            }
        }
    }
}
