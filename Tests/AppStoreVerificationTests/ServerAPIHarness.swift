import AppStoreVerification
import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import StoreSyncCore
import StoreSyncTesting

/// A stand-in of Apple's App Store Server API and clients pointed at it, sharing one test
/// clock, a sleeper that records waits instead of waiting, and a capturing logger.
struct ServerAPIHarness: Sendable {
    /// 2025-06-16: a day after the fixtures' signing moment, inside notification history's reach.
    static let start = Fixtures.signedAt.addingTimeInterval(86_400)

    let standIn: AppStoreServerAPIStandIn
    let pki: TestPKI
    let clock: TestClock
    let sleeper: RecordingSleeper
    let logs: CapturingLogHandler.Store
    let logger: Logger

    /// Runs a stand-in trusting a fresh test PKI for the duration of `body`.
    static func run(
        pageSize: Int = 20, notificationURL: URL? = nil, _ body: @Sendable (ServerAPIHarness) async throws -> Void
    ) async throws {
        let pki = try TestPKI.make()
        let clock = TestClock(start: start)
        let (logger, logs) = CapturingLogHandler.logger()
        try await AppStoreServerAPIStandIn.run(
            signer: Fixtures.signer(pki), pageSize: pageSize, notificationURL: notificationURL, now: clock.now
        ) { standIn in
            try await body(
                ServerAPIHarness(
                    standIn: standIn, pki: pki, clock: clock, sleeper: RecordingSleeper(), logs: logs, logger: logger))
        }
    }

    /// A client of the stand-in, verifying with a sandbox verifier that trusts the test PKI. Its
    /// timeout is far above an answer's time, so that a machine busy with the rest of the suite
    /// never turns a slow answer into a retry the tests would count.
    func client(
        key: TestAppStoreAPIKey? = nil,
        maxAttempts: Int = 4,
        maximumRetryWait: Duration = .seconds(60),
        maximumPages: Int = 100,
        now: (@Sendable () -> Date)? = nil
    ) throws -> AppStoreServerAPIClient {
        let key = key ?? standIn.key
        let configuration = try AppStoreServerAPIConfiguration(
            keyId: key.keyId, issuerId: key.issuerId, privateKeyPEM: key.privateKeyPEM, bundleId: Fixtures.bundleId,
            environment: .sandbox, baseURL: standIn.baseURL, timeout: .seconds(60), maxAttempts: maxAttempts,
            retryBackoff: .milliseconds(100), maximumRetryWait: maximumRetryWait, maximumPages: maximumPages)
        let sleeper = self.sleeper
        return AppStoreServerAPIClient(
            configuration: configuration, verifier: try Fixtures.verifier(trusting: pki), httpClient: .shared,
            logger: logger, now: now ?? clock.now, sleep: { try await sleeper.sleep($0) })
    }

    /// The warnings logged so far.
    var warnings: [String] { logs.all.filter { $0.level == .warning }.map(\.message) }

    /// A monthly subscription chain of `count` renewals, original id `original`.
    static func subscription(original: Int, count: Int, product: String = "com.example.pro.monthly")
        -> [TransactionRecord]
    {
        let first = Fixtures.signedAt.addingTimeInterval(-Double(count) * 30 * 86_400)
        return (0..<count).map { index in
            let purchase = first.addingTimeInterval(Double(index) * 30 * 86_400)
            return TransactionRecord(
                transactionId: String(original + index), originalTransactionId: String(original), productId: product,
                productType: .autoRenewable, purchaseDate: purchase, originalPurchaseDate: first,
                expiresDate: purchase.addingTimeInterval(30 * 86_400), environment: .sandbox, signedDate: purchase,
                subscriptionGroupId: "21345678", evidence: .jws)
        }
    }

    /// A non-consumable purchase.
    static func lifetime(_ transactionId: String, product: String = "com.example.lifetime") -> TransactionRecord {
        TransactionRecord(
            transactionId: transactionId, originalTransactionId: transactionId, productId: product,
            productType: .nonConsumable, purchaseDate: Fixtures.signedAt, originalPurchaseDate: Fixtures.signedAt,
            environment: .sandbox, signedDate: Fixtures.signedAt, evidence: .jws)
    }
}

/// Records the waits a client asks for and returns at once.
final class RecordingSleeper: Sendable {
    private let waits = NIOLockedValueBox<[Duration]>([])

    /// Every wait asked for, in order.
    var recorded: [Duration] { waits.withLockedValue { $0 } }

    func sleep(_ duration: Duration) async throws {
        waits.withLockedValue { $0.append(duration) }
    }
}
