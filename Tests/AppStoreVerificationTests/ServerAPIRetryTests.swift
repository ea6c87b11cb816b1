import AppStoreVerification
import AsyncHTTPClient
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

/// `429`, `5xx`, transport failures and malformed answers.
@Suite struct ServerAPIRetryTests {
    @Test func rateLimitIsRetriedAfterTheRetryAfterSeconds() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000")])
            await harness.standIn.enqueue(.rateLimited(retryAfter: "7"))
            let history = try await harness.client().transactionHistory(for: "5000")

            #expect(history.transactions.count == 1)
            #expect(harness.sleeper.recorded == [.seconds(7)])
            #expect(await harness.standIn.requests.count == 2)
        }
    }

    @Test func rateLimitHonoursApplesMillisecondTimestamp() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000")])
            let until = ServerAPIHarness.start.addingTimeInterval(2.5).millisecondsSince1970
            await harness.standIn.enqueue(.rateLimited(retryAfter: String(until)))
            _ = try await harness.client().transactionHistory(for: "5000")
            #expect(harness.sleeper.recorded == [.milliseconds(2500)])
        }
    }

    @Test func rateLimitHonoursAnHTTPDate() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000")])
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = formatter.string(from: ServerAPIHarness.start.addingTimeInterval(42))
            await harness.standIn.enqueue(.rateLimited(retryAfter: date))
            _ = try await harness.client().transactionHistory(for: "5000")
            #expect(harness.sleeper.recorded == [.seconds(42)])
        }
    }

    @Test func rateLimitWithoutRetryAfterBacksOffExponentially() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000")])
            for _ in 0..<3 { await harness.standIn.enqueue(.rateLimited(retryAfter: nil)) }
            _ = try await harness.client(maxAttempts: 4).transactionHistory(for: "5000")
            #expect(harness.sleeper.recorded == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        }
    }

    @Test func rateLimitThatOutlastsTheAttemptsIsTyped() async throws {
        try await ServerAPIHarness.run { harness in
            for _ in 0..<3 { await harness.standIn.enqueue(.rateLimited(retryAfter: "1")) }
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await harness.client(maxAttempts: 3).lookUpOrder("MK5TTTVWJH")
            }
            guard case .rateLimited(let retryAfter, let payload) = error else {
                Issue.record("expected rateLimited, got \(String(describing: error))")
                return
            }
            #expect(retryAfter == ServerAPIHarness.start.addingTimeInterval(1))
            #expect(payload.errorCode == .rateLimitExceeded)
            #expect(await harness.standIn.requests.count == 3)
            #expect(harness.sleeper.recorded.count == 2)
        }
    }

    @Test func retryAfterBeyondTheMaximumWaitEndsTheCallAtOnce() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.enqueue(.rateLimited(retryAfter: "3600"))
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await harness.client(maximumRetryWait: .seconds(60)).lookUpOrder("MK5TTTVWJH")
            }
            guard case .rateLimited(let retryAfter, _) = error else {
                Issue.record("expected rateLimited, got \(String(describing: error))")
                return
            }
            #expect(retryAfter == ServerAPIHarness.start.addingTimeInterval(3600))
            #expect(harness.sleeper.recorded.isEmpty)
            #expect(await harness.standIn.requests.count == 1)
        }
    }

    @Test func serverErrorThenSuccessIsRetried() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000")])
            await harness.standIn.addOrder("MK5TTTVWJH", transactionIds: ["5000"])
            await harness.standIn.enqueue(.serverError(status: 500))
            let order = try await harness.client().lookUpOrder("MK5TTTVWJH")

            #expect(order.transactions.map(\.record.transactionId) == ["5000"])
            #expect(harness.sleeper.recorded == [.milliseconds(100)])
            #expect(await harness.standIn.requests.count == 2)
        }
    }

    @Test func serverErrorsThroughEveryAttemptAreUnavailable() async throws {
        try await ServerAPIHarness.run { harness in
            for _ in 0..<2 { await harness.standIn.enqueue(.serverError(status: 503)) }
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await harness.client(maxAttempts: 2).lookUpOrder("MK5TTTVWJH")
            }
            #expect(error == .unavailable(status: 503, AppStoreServerAPIErrorPayload(
                errorCode: .generalInternal, errorMessage: "An unknown error occurred.")))
        }
    }

    @Test func notFoundIsNotRetried() async throws {
        try await ServerAPIHarness.run { harness in
            await #expect(throws: AppStoreServerAPIError.self) { try await harness.client().subscriptionStatuses(for: "1") }
            #expect(await harness.standIn.requests.count == 1)
            #expect(harness.sleeper.recorded.isEmpty)
        }
    }

    @Test func malformedJSONIsAClearErrorAndNotRetried() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000")])
            await harness.standIn.enqueue(.malformedJSON)
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await harness.client().transactionHistory(for: "5000")
            }
            guard case .malformedResponse(let detail) = error else {
                Issue.record("expected malformedResponse, got \(String(describing: error))")
                return
            }
            #expect(detail.contains("transaction history"))
            #expect(await harness.standIn.requests.count == 1)
        }
    }

    @Test func oversizedAnswerIsRefused() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.enqueue(.oversizedBody(bytes: 5 * 1024 * 1024))
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await harness.client().lookUpOrder("MK5TTTVWJH")
            }
            #expect(error.map { "\($0)" }?.contains("larger than") == true)
        }
    }

    @Test func unreachableServerIsRetriedThenTyped() async throws {
        try await ServerAPIHarness.run { harness in
            let closed = try #require(URL(string: "http://127.0.0.1:\(try FreePort.find())"))
            let configuration = try AppStoreServerAPIConfiguration(
                keyId: "KEY", issuerId: "issuer", privateKeyPEM: harness.standIn.key.privateKeyPEM,
                bundleId: Fixtures.bundleId, environment: .sandbox, baseURL: closed, timeout: .milliseconds(500), maxAttempts: 3,
                retryBackoff: .milliseconds(1))
            let sleeper = harness.sleeper
            let client = AppStoreServerAPIClient(
                configuration: configuration, verifier: try Fixtures.verifier(trusting: harness.pki),
                httpClient: .shared, logger: harness.logger, sleep: { try await sleeper.sleep($0) })
            let error = await #expect(throws: AppStoreServerAPIError.self) { try await client.lookUpOrder("X") }
            guard case .unreachable = error else {
                Issue.record("expected unreachable, got \(String(describing: error))")
                return
            }
            #expect(sleeper.recorded.count == 2)
        }
    }
}
