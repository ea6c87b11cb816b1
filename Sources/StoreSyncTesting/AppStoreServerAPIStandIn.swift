import AppStoreVerification
public import Foundation
import Hummingbird
public import StoreSyncCore

/// A local stand-in for Apple's App Store Server API, on 127.0.0.1 and a free port: point
/// ``AppStoreVerification/AppStoreServerAPIConfiguration/baseURL`` at ``baseURL``.
///
/// It checks every token as Apple does (``AppStoreServerAPITokenCheck``: ES256 with
/// ``key``'s public half, `kid`, `iss`, `aud`, `bid`, `iat`/`exp`) and answers 401 to a bad or
/// expired one. It serves what the test recorded — customers' transactions and renewal
/// infos, notifications, orders — signed by ``signer`` as it goes out: transaction history
/// with `revision` paging, subscription statuses, notification history with
/// `paginationToken` paging, order lookup, and test notifications it really posts to the
/// notification URL. Faults (``enqueue(_:)``) and spoiled items (``tamper(transaction:_:)``
/// and its siblings) script what a client must survive.
public final class AppStoreServerAPIStandIn: Sendable {
    /// Where the stand-in listens, e.g. `http://127.0.0.1:54321`.
    public let baseURL: URL
    /// The key whose tokens are accepted.
    public let key: TestAppStoreAPIKey
    /// Signs what the stand-in serves; its bundle id is the only `bid` accepted.
    public let signer: AppStoreTestSigner
    let engine: AppStoreServerAPIStandInEngine

    private init(port: Int, key: TestAppStoreAPIKey, engine: AppStoreServerAPIStandInEngine) throws {
        guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw LoopbackHTTPServerError.noPort }
        self.baseURL = url
        self.key = key
        self.signer = engine.signer
        self.engine = engine
    }

    /// Runs a stand-in for the duration of `body`, then stops it.
    ///
    /// - Parameters:
    ///   - signer: Signs served items; its bundle id is the app's.
    ///   - key: The API key whose tokens are accepted.
    ///   - environment: The environment written into answers and test notifications.
    ///   - pageSize: Items per page of the paged endpoints (Apple's is 20).
    ///   - notificationURL: Where test notifications are posted; without one, Request a Test
    ///     Notification answers 404 as Apple does for an app with no URL.
    ///   - now: The stand-in's clock: token expiry, statuses, test notification dates.
    ///   - body: The test, given the running stand-in.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or an error when the server cannot start.
    @discardableResult
    public static func run<Result: Sendable>(
        signer: AppStoreTestSigner,
        key: TestAppStoreAPIKey = TestAppStoreAPIKey(),
        environment: AppStoreEnvironment = .sandbox,
        pageSize: Int = 20,
        notificationURL: URL? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        _ body: @Sendable (AppStoreServerAPIStandIn) async throws -> Result
    ) async throws -> Result {
        let engine = try AppStoreServerAPIStandInEngine(
            key: key, signer: signer, environment: environment, pageSize: pageSize, notificationURL: notificationURL,
            now: now)
        return try await LoopbackHTTPServer.run(router: router(engine), label: "storesync.testing.appstore-api-stand-in") {
            port in
            try await body(try AppStoreServerAPIStandIn(port: port, key: key, engine: engine))
        }
    }

    private static func router(_ engine: AppStoreServerAPIStandInEngine) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/inApps/v2/history/:id") { request, context in
            try await engine.answer(request, endpoint: .transactionHistory(try context.parameters.require("id")))
        }
        router.get("/inApps/v1/subscriptions/:id") { request, context in
            try await engine.answer(request, endpoint: .subscriptionStatuses(try context.parameters.require("id")))
        }
        router.post("/inApps/v1/notifications/history") { request, _ in
            try await engine.answer(request, endpoint: .notificationHistory)
        }
        router.get("/inApps/v1/lookup/:orderId") { request, context in
            try await engine.answer(request, endpoint: .orderLookup(try context.parameters.require("orderId")))
        }
        router.post("/inApps/v1/notifications/test") { request, _ in
            try await engine.answer(request, endpoint: .requestTestNotification)
        }
        router.get("/inApps/v1/notifications/test/:token") { request, context in
            try await engine.answer(request, endpoint: .testNotificationStatus(try context.parameters.require("token")))
        }
        return router
    }
}
