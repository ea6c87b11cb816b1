import AsyncHTTPClient
import NIOCore

/// The HTTP client every test and the bench driver talk to a server with.
///
/// Not `HTTPClient.shared`, whose defaults suit a service calling a flaky remote host: at most 8
/// connections per host, with the rest of the requests queued, and a refused connection retried
/// until the connect timeout. Tests fire more than 8 requests at once on purpose (restores cut
/// off by a kill), and a server they killed refuses connections on purpose: a request to it
/// must fail at once, not wait out a backoff.
enum TestHTTPClient {
    static let shared: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}
