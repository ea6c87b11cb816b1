import AppStoreVerification
import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct ReceiptVerifierTests {
    static let receiptData = Data("a legacy app receipt".utf8).base64EncodedString()
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let purchaseMs = "1749000000000"

    static func entry(_ transactionId: String, product: String, expiresMs: String? = nil) -> ReceiptEntry {
        var entry = ReceiptEntry(
            productId: product, transactionId: transactionId, originalTransactionId: "1000",
            purchaseDateMs: purchaseMs, expiresDateMs: expiresMs)
        entry.quantity = "1"
        entry.originalPurchaseDateMs = purchaseMs
        entry.inAppOwnershipType = .purchased
        return entry
    }

    /// A verifier of `standIn`. The default timeouts are far above what an answer takes: the
    /// stand-in answers from the same process as the rest of the suite, and on a machine busy
    /// with it (two cores, a full run) an answer once took over 5 s, the attempt timed out and
    /// was sent again, and every test counting requests saw two. The tests of timeouts set their own.
    static func verifier(
        _ standIn: AppStoreReceiptStandIn,
        timeout: Duration = .seconds(60),
        totalTimeout: Duration = .seconds(180),
        maxAttempts: Int = 3,
        productTypes: [String: ProductType] = ["com.example.lifetime": .nonConsumable],
        firstEnvironment: AppStoreEnvironment = .production
    ) -> ReceiptVerifier {
        let configuration = ReceiptVerifierConfiguration(
            bundleId: Fixtures.bundleId, productionURL: standIn.productionURL, sandboxURL: standIn.sandboxURL,
            sharedSecret: "shared-secret", excludeOldTransactions: true, timeout: timeout, totalTimeout: totalTimeout,
            maxAttempts: maxAttempts,
            retryBackoff: .milliseconds(1), productTypes: productTypes, firstEnvironment: firstEnvironment)
        return ReceiptVerifier(configuration: configuration, httpClient: .shared, logger: Fixtures.logger)
    }

    @Test func validReceiptBecomesRecordsWithReceiptEvidence() async throws {
        let reply = AppStoreReceiptStandInReply.receipt(
            bundleId: Fixtures.bundleId, environment: .production,
            inApp: [Self.entry("1000", product: "com.example.lifetime")],
            latestReceiptInfo: [Self.entry("1001", product: "com.example.monthly", expiresMs: "1751000000000")])
        try await AppStoreReceiptStandIn.run(reply: { _ in reply }) { standIn in
            let receipt = try await Self.verifier(standIn).verify(receiptData: Self.receiptData, now: Self.now)

            #expect(receipt.status == .valid)
            #expect(receipt.environment == .production)
            #expect(receipt.bundleId == Fixtures.bundleId)
            let records = Dictionary(uniqueKeysWithValues: receipt.records.map { ($0.transactionId, $0) })
            #expect(records["1000"]?.productType == .nonConsumable)
            #expect(records["1001"]?.productType == .autoRenewable)
            #expect(records["1001"]?.expiresDate == Date(millisecondsSince1970: 1_751_000_000_000))
            #expect(records["1000"]?.purchaseDate == Date(millisecondsSince1970: 1_749_000_000_000))
            #expect(receipt.records.allSatisfy { $0.evidence == .receipt(verifiedAt: Self.now) })
            #expect(receipt.records.allSatisfy { $0.signedDate == Self.now })
        }
    }

    @Test("in_app entries are dated when the receipt was made, latest_receipt_info when Apple answered")
    func entriesAreDatedByTheStateTheyDescribe() async throws {
        let made = Self.now.addingTimeInterval(-3 * 86_400)
        let reply = AppStoreReceiptStandInReply.receipt(
            bundleId: Fixtures.bundleId, environment: .production,
            inApp: [Self.entry("1000", product: "com.example.lifetime")],
            latestReceiptInfo: [Self.entry("1001", product: "com.example.monthly", expiresMs: "1751000000000")],
            createdAt: made)
        try await AppStoreReceiptStandIn.run(reply: { _ in reply }) { standIn in
            let receipt = try await Self.verifier(standIn).verify(receiptData: Self.receiptData, now: Self.now)

            let records = Dictionary(uniqueKeysWithValues: receipt.records.map { ($0.transactionId, $0) })
            #expect(records["1000"]?.signedDate == made, "what this copy of the receipt holds, as of its making")
            #expect(records["1001"]?.signedDate == Self.now, "Apple's current state, as of its answer")
            #expect(receipt.records.allSatisfy { $0.evidence == .receipt(verifiedAt: Self.now) })
        }
    }

    @Test("A receipt claiming to be made after Apple's answer is dated at the answer")
    func aCreationDateAfterTheAnswerIsClampedToIt() async throws {
        let reply = AppStoreReceiptStandInReply.receipt(
            bundleId: Fixtures.bundleId, environment: .production,
            inApp: [Self.entry("1000", product: "com.example.lifetime")], createdAt: Self.now.addingTimeInterval(86_400))
        try await AppStoreReceiptStandIn.run(reply: { _ in reply }) { standIn in
            let receipt = try await Self.verifier(standIn).verify(receiptData: Self.receiptData, now: Self.now)
            #expect(receipt.records.map(\.signedDate) == [Self.now])
        }
    }

    @Test func requestCarriesReceiptSecretAndExcludeFlag() async throws {
        let reply = AppStoreReceiptStandInReply.receipt(bundleId: Fixtures.bundleId, environment: .production, inApp: [])
        try await AppStoreReceiptStandIn.run(reply: { _ in reply }) { standIn in
            _ = try await Self.verifier(standIn).verify(receiptData: Self.receiptData, now: Self.now)

            let requests = await standIn.requests
            #expect(
                requests == [
                    AppStoreReceiptStandInRequest(
                        endpoint: .production, receiptData: Self.receiptData, password: "shared-secret",
                        excludeOldTransactions: true)
                ])
        }
    }

    @Test func sandboxReceiptIsRetriedAgainstSandboxOn21007() async throws {
        try await AppStoreReceiptStandIn.run(reply: { request in
            request.endpoint == .production
                ? .status(21007)
                : .receipt(
                    bundleId: Fixtures.bundleId, environment: .sandbox,
                    inApp: [Self.entry("7", product: "com.example.lifetime")])
        }) { standIn in
            let receipt = try await Self.verifier(standIn).verify(receiptData: Self.receiptData, now: Self.now)

            #expect(receipt.environment == .sandbox)
            #expect(receipt.records.map(\.environment) == [.sandbox])
            #expect(await standIn.requests.map(\.endpoint) == [.production, .sandbox])
        }
    }

    @Test func productionReceiptIsRetriedAgainstProductionOn21008() async throws {
        try await AppStoreReceiptStandIn.run(reply: { request in
            request.endpoint == .sandbox
                ? .status(21008)
                : .receipt(bundleId: Fixtures.bundleId, environment: .production, inApp: [])
        }) { standIn in
            let receipt = try await Self.verifier(standIn, firstEnvironment: .sandbox)
                .verify(receiptData: Self.receiptData, now: Self.now)

            #expect(receipt.environment == .production)
            #expect(await standIn.requests.map(\.endpoint) == [.sandbox, .production])
        }
    }

    @Test func environmentSwitchHappensOnlyOnce() async throws {
        try await AppStoreReceiptStandIn.run(reply: { request in
            .status(request.endpoint == .production ? 21007 : 21008)
        }) { standIn in
            await #expect(throws: ReceiptVerificationError.rejected(.productionReceipt)) {
                try await Self.verifier(standIn).verify(receiptData: Self.receiptData, now: Self.now)
            }
            #expect(await standIn.requests.count == 2)
        }
    }

    @Test(arguments: [21002, 21005, 21009, 21100, 21199])
    func retryableStatusIsRetriedUpToTheLimitThenRejected(status: Int) async throws {
        try await AppStoreReceiptStandIn.run(reply: { _ in .status(status) }) { standIn in
            await #expect(throws: ReceiptVerificationError.rejected(ReceiptStatus(rawValue: status))) {
                try await Self.verifier(standIn, maxAttempts: 3).verify(receiptData: Self.receiptData, now: Self.now)
            }
            #expect(await standIn.requests.count == 3)
        }
    }

    @Test func temporaryFailureRecoversOnRetry() async throws {
        let counter = AttemptCounter()
        try await AppStoreReceiptStandIn.run(reply: { _ in
            counter.next() == 1
                ? .status(21005)
                : .receipt(bundleId: Fixtures.bundleId, environment: .production, inApp: [])
        }) { standIn in
            let receipt = try await Self.verifier(standIn).verify(receiptData: Self.receiptData, now: Self.now)

            #expect(receipt.status == .valid)
            #expect(await standIn.requests.count == 2)
        }
    }

    @Test func applesIsRetryableFlagIsHonouredForFailures() async throws {
        try await AppStoreReceiptStandIn.run(reply: { _ in .status(21003, isRetryable: true) }) { standIn in
            await #expect(throws: ReceiptVerificationError.rejected(.notAuthenticated)) {
                try await Self.verifier(standIn, maxAttempts: 2).verify(receiptData: Self.receiptData, now: Self.now)
            }
            #expect(await standIn.requests.count == 2)
        }
    }

    @Test func redirectMarkedRetryableStillSwitchesEnvironment() async throws {
        try await AppStoreReceiptStandIn.run(reply: { request in
            request.endpoint == .production
                ? .status(21007, isRetryable: true)
                : .receipt(bundleId: Fixtures.bundleId, environment: .sandbox, inApp: [])
        }) { standIn in
            let receipt = try await Self.verifier(standIn).verify(receiptData: Self.receiptData, now: Self.now)

            #expect(receipt.environment == .sandbox)
            #expect(await standIn.requests.map(\.endpoint) == [.production, .sandbox])
        }
    }

    @Test(arguments: [21000, 21003, 21004, 21010, 21001])
    func finalStatusIsRejectedWithoutRetry(status: Int) async throws {
        try await AppStoreReceiptStandIn.run(reply: { _ in .status(status) }) { standIn in
            await #expect(throws: ReceiptVerificationError.rejected(ReceiptStatus(rawValue: status))) {
                try await Self.verifier(standIn).verify(receiptData: Self.receiptData, now: Self.now)
            }
            #expect(await standIn.requests.count == 1)
        }
    }

    @Test(arguments: ["{not json", "[]", #"{"status":"0"}"#, #"{"status":0}"#, #"{"status":0,"receipt":{"bundle_id":"com.example.storesync","in_app":[{"transaction_id":"1","product_id":"com.example.lifetime","purchase_date_ms":"yesterday"}]}}"#,
        #"{"status":0,"receipt":{"bundle_id":"com.example.storesync","receipt_creation_date_ms":"soon","in_app":[]}}"#])
    func malformedAnswerIsATypedError(body: String) async throws {
        try await AppStoreReceiptStandIn.run(reply: { _ in .body(body) }) { standIn in
            let error = await #expect(throws: ReceiptVerificationError.self) {
                try await Self.verifier(standIn).verify(receiptData: Self.receiptData, now: Self.now)
            }
            guard case .malformedResponse = error else {
                Issue.record("expected malformedResponse, got \(String(describing: error))")
                return
            }
        }
    }

    /// Verifies with `verifier` and expects it to end `unreachable`, as a verification Apple
    /// does not answer does.
    static func expectUnreachable(_ verifier: ReceiptVerifier, sourceLocation: SourceLocation = #_sourceLocation) async {
        let error = await #expect(throws: ReceiptVerificationError.self, sourceLocation: sourceLocation) {
            try await verifier.verify(receiptData: Self.receiptData, now: Self.now)
        }
        guard case .unreachable = error else {
            Issue.record("expected unreachable, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
    }

    @Test func slowEndpointTimesOutAndIsUnreachable() async throws {
        let slow = AppStoreReceiptStandInReply.delayed(
            .seconds(30), .receipt(bundleId: Fixtures.bundleId, environment: .production, inApp: []))
        try await AppStoreReceiptStandIn.run(reply: { _ in slow }) { standIn in
            await Self.expectUnreachable(Self.verifier(standIn, timeout: .seconds(1), maxAttempts: 2))
            #expect(await standIn.requests.count == 2)
        }
    }

    /// An endpoint that answers nothing: the attempts share the whole verification's time, so
    /// a device hears back within it however many attempts were allowed. The first attempt
    /// uses its full second, the second gets the half second left, and no third starts.
    ///
    /// The second starts only if the first's timeout fired before the 1.5 s were spent, which
    /// a machine busy with the rest of the suite can delay (it did once in a full run on two
    /// cores); what never happens is a third, or one past the five allowed.
    @Test func silentEndpointIsGivenUpWhenTheTotalTimeIsSpent() async throws {
        let silent = AppStoreReceiptStandInReply.delayed(
            .seconds(30), .receipt(bundleId: Fixtures.bundleId, environment: .production, inApp: []))
        try await AppStoreReceiptStandIn.run(reply: { _ in silent }) { standIn in
            await Self.expectUnreachable(
                Self.verifier(standIn, timeout: .seconds(1), totalTimeout: .milliseconds(1_500), maxAttempts: 5))
            #expect((1...2).contains(await standIn.requests.count))
        }
    }

    /// An attempt waits only for what is left of the total time, not its own full timeout: an
    /// answer (here a 21007, which would send the next request to the sandbox) that comes
    /// later is not waited for, and nothing more is asked.
    ///
    /// On a machine busy with the rest of the suite the half second can run out before the
    /// request reaches the stand-in at all (it did once in a full run on two cores); what never
    /// happens is a second request.
    @Test func anAttemptWaitsOnlyForWhatIsLeftOfTheTotalTime() async throws {
        let lateRedirect = AppStoreReceiptStandInReply.delayed(.seconds(3), .status(21007))
        try await AppStoreReceiptStandIn.run(reply: { _ in lateRedirect }) { standIn in
            await Self.expectUnreachable(
                Self.verifier(standIn, timeout: .seconds(20), totalTimeout: .milliseconds(500)))
            #expect(await standIn.requests.count <= 1)
        }
    }

    @Test func serverErrorIsRetriedThenUnreachable() async throws {
        try await AppStoreReceiptStandIn.run(reply: { _ in .httpStatus(503) }) { standIn in
            await #expect(throws: ReceiptVerificationError.unreachable("HTTP status 503")) {
                try await Self.verifier(standIn, maxAttempts: 2).verify(receiptData: Self.receiptData, now: Self.now)
            }
            #expect(await standIn.requests.count == 2)
        }
    }

    @Test func receiptOfAnotherBundleIsRejected() async throws {
        let reply = AppStoreReceiptStandInReply.receipt(bundleId: "com.other.app", environment: .production, inApp: [])
        try await AppStoreReceiptStandIn.run(reply: { _ in reply }) { standIn in
            await #expect(throws: ReceiptVerificationError.bundleMismatch) {
                try await Self.verifier(standIn).verify(receiptData: Self.receiptData, now: Self.now)
            }
        }
    }

    @Test(arguments: ["", "not base64 at all!"])
    func invalidReceiptDataIsRefusedWithoutAsking(receiptData: String) async throws {
        try await AppStoreReceiptStandIn.run(reply: { _ in .status(0) }) { standIn in
            let error = await #expect(throws: ReceiptVerificationError.self) {
                try await Self.verifier(standIn).verify(receiptData: receiptData, now: Self.now)
            }
            guard case .invalidReceiptData = error else {
                Issue.record("expected invalidReceiptData, got \(String(describing: error))")
                return
            }
            #expect(await standIn.requests.isEmpty)
        }
    }

    @Test func latestReceiptInfoWinsAndUnknownProductsAreReportedNotGuessed() async throws {
        var refunded = Self.entry("2000", product: "com.example.monthly", expiresMs: "1751000000000")
        refunded.cancellationDateMs = "1749500000000"
        refunded.cancellationReason = "1"
        let reply = AppStoreReceiptStandInReply.receipt(
            bundleId: Fixtures.bundleId, environment: .production,
            inApp: [
                Self.entry("2000", product: "com.example.monthly", expiresMs: "1751000000000"),
                Self.entry("3000", product: "com.example.coins"),
            ],
            latestReceiptInfo: [refunded])
        try await AppStoreReceiptStandIn.run(reply: { _ in reply }) { standIn in
            let receipt = try await Self.verifier(standIn).verify(receiptData: Self.receiptData, now: Self.now)

            let records = Dictionary(uniqueKeysWithValues: receipt.records.map { ($0.transactionId, $0) })
            #expect(records.count == 2)
            #expect(records["2000"]?.revocationDate == Date(millisecondsSince1970: 1_749_500_000_000))
            #expect(records["2000"]?.revocationReason == .appIssue)
            #expect(records["3000"]?.productType == .unstated, "kept, its kind not guessed")
            #expect(receipt.unclassifiedProductIds == ["com.example.coins"])
            #expect(receipt.entries.count == 2)
        }
    }
}

/// Counts the stand-in's requests from its handler.
final class AttemptCounter: Sendable {
    private let count = NIOLockedValueBox(0)

    func next() -> Int {
        count.withLockedValue { count in
            count += 1
            return count
        }
    }
}
