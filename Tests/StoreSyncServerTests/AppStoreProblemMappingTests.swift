import AppStoreVerification
import StoreSyncAPI
@testable import StoreSyncServer
import Testing

/// What a client of the App Store admin routes sees when the API is off or Apple fails.
@Suite struct AppStoreProblemMappingTests {
    typealias Answer = ProblemMappingTests.Answer

    private static let message = AppStoreServerAPIErrorPayload(errorMessage: "Transaction id not found.")

    @Test(arguments: [
        (
            AppStoreAPIFailure.notConfigured(missing: AppStoreAPIKeySettings.settings),
            Answer(
                .appStoreAPINotConfigured,
                detail: "the App Store Server API is not configured: set STORESYNC_APPSTORE_API_KEY_ID, "
                    + "STORESYNC_APPSTORE_API_ISSUER_ID, STORESYNC_APPSTORE_API_PRIVATE_KEY (the .p8 key's path)")
        ),
        (
            .apple(.notFound(message)),
            Answer(.notFound, detail: "the App Store Server API knows no such id (Transaction id not found.)")
        ),
        (
            .apple(.rateLimited(retryAfter: nil, message)),
            Answer(.serviceUnavailable, detail: "the App Store Server API is rate limiting; retry in 60 s", retryAfter: "60")
        ),
        (
            .apple(.unavailable(status: 500, message)),
            Answer(
                .serviceUnavailable,
                detail: "the App Store Server API is failing (HTTP 500, Transaction id not found.); retry later", retryAfter: "60")
        ),
        (.apple(.invalidArgument("transactionId is empty")), Answer(.invalidRequest, detail: "transactionId is empty")),
    ])
    func failuresAreAnsweredWithTheirProblem(error: AppStoreAPIFailure, expected: Answer) {
        #expect(Answer(ProblemError(error)) == expected)
    }

    @Test func aKeyAppleRefusesIsABadGatewayNamingTheKey() {
        let answer = Answer(ProblemError(AppStoreAPIFailure.apple(.unauthorized(keyId: "KEY1", issuerId: "iss", bundleId: "b"))))
        #expect(answer.type == .appStoreAPIError)
        #expect(answer.status == 502)
        #expect(answer.detail?.contains("KEY1") == true)
        #expect(answer.retryAfter == nil)
    }
}
