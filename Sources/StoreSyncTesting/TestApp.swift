public import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
public import PostgresLibPQ
import StoreSyncServer

/// StoreSync's application for tests that need no socket: each request goes straight to its
/// router in this process (HummingbirdTesting's `.router` framework), while its services — the
/// pool, the change feed — run on a ``TestSetup`` as a server's do: a fresh database in the test
/// cluster, a trusted test PKI, fixed keys and a clock the test moves.
///
/// ```swift
/// try await withTestApp { app in
///     let session = try await app.signUp()
///     #expect(try await app.send("GET", "/v1/entitlements", token: session.token).status == 200)
/// }
/// ```
///
/// Tests of what only a connection has — the client address, `Expect: 100-continue`, the
/// event loops — use ``TestServer``.
public final class TestApp: TestStoreSync {
    /// What the application serves.
    public let setup: TestSetup
    /// A pool of the test's own on the application's database.
    public let database: ConnectionPool

    private let client: any TestClientProtocol
    /// Finishing it ends the test closure, which stops the application's services.
    private let finish: AsyncStream<Void>.Continuation
    private let running: Task<Void, any Error>

    private init(
        setup: TestSetup, database: ConnectionPool, client: any TestClientProtocol, finish: AsyncStream<Void>.Continuation,
        running: Task<Void, any Error>
    ) {
        self.setup = setup
        self.database = database
        self.client = client
        self.finish = finish
        self.running = running
    }

    /// Builds the application on `setup` and starts its services; migrations and the catalog
    /// are loaded when this returns.
    ///
    /// `app.test(.router)` runs in a task of its own and its client is kept until ``stop()``:
    /// a test then calls the application from anywhere, as it would a server.
    ///
    /// - Parameter setup: What it serves.
    /// - Returns: The running application.
    /// - Throws: When the application cannot be built or does not start.
    public static func start(serving setup: TestSetup) async throws -> TestApp {
        let logger = setup.logger(label: "storesync.test-app")
        let app = try await setup.buildApplication(logger: logger)
        let (clients, deliver) = AsyncStream.makeStream(of: (any TestClientProtocol).self)
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        let running = Task {
            defer { deliver.finish() }
            try await app.test(.router) { client in
                deliver.yield(client)
                for await _ in finished {}
            }
        }
        let client = try await firstValue(of: clients, orFailureOf: running)
        return TestApp(
            setup: setup, database: setup.inspectionPool(logger: logger), client: client, finish: finish, running: running)
    }

    /// Hands a request to the application's router and collects its response.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, `PUT`, `DELETE`.
    ///   - path: The path and query, e.g. `/v1/entitlements`.
    ///   - token: A bearer token (a device token or the admin key).
    ///   - body: The body bytes.
    ///   - contentType: The `Content-Type` of the body.
    ///   - headers: More headers.
    ///   - timeout: How long to wait for the whole response before throwing (a hung handler).
    /// - Returns: The response.
    /// - Throws: ``TestServerError`` for a method or header name HTTP does not allow, or a timeout.
    public func sendRequest(
        _ method: String, _ path: String, token: String?, body: Data?, contentType: String?,
        headers: [String: String], timeout: Duration
    ) async throws -> TestResponse {
        guard let method = HTTPRequest.Method(method) else { throw TestServerError.unexpected("no HTTP method \(method)") }
        var fields = HTTPFields()
        if let token { fields[.authorization] = "Bearer \(token)" }
        if body != nil, let contentType { fields[.contentType] = contentType }
        for (name, value) in headers {
            guard let name = HTTPField.Name(name) else { throw TestServerError.unexpected("no HTTP header name \(name)") }
            fields.append(HTTPField(name: name, value: value))
        }
        let (client, request) = (client, fields)
        let response = try await Self.within(timeout) {
            try await client.executeRequest(uri: path, method: method, headers: request, body: body.map { ByteBuffer(bytes: $0) })
        }
        var answered: [String: String] = [:]
        for field in response.headers { answered[field.name.rawName] = field.value }
        return TestResponse(status: response.status.code, headers: answered, body: Data(response.body.readableBytesView))
    }

    /// Stops the application's services and frees the test's pool; call it once the test's
    /// requests have their answers.
    public func stop() async {
        finish.finish()
        _ = try? await running.value
        await database.shutdown()
        setup.removeFiles()
    }

    /// What `body` returns, unless `timeout` passes first.
    private static func within<Value: Sendable>(
        _ timeout: Duration, _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TestServerError.unexpected("no response within \(timeout)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}
