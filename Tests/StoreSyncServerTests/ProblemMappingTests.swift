import Hummingbird
import StoreSyncAPI
@testable import StoreSyncServer
import Testing

/// Every error a service throws is answered with the problem a client expects: a stable type,
/// its status, the field at fault, the detail, and the headers that say when to come back.
@Suite struct ProblemMappingTests {
    /// What a client sees of one problem.
    struct Answer: Equatable, CustomStringConvertible {
        var type: ProblemType
        var status: Int
        var field: String?
        var detail: String?
        var retryAfter: String?

        init(_ type: ProblemType, field: String? = nil, detail: String?, retryAfter: String? = nil) {
            (self.type, status, self.field, self.detail, self.retryAfter) = (type, type.status, field, detail, retryAfter)
        }

        init(_ problem: ProblemError) {
            type = ProblemType(uri: problem.problem.type) ?? .internal
            status = Int(problem.status.code)
            field = problem.problem.field
            detail = problem.problem.detail
            retryAfter = problem.headers[.retryAfter]
        }

        var description: String { "\(type.slug) \(status) field=\(field ?? "-") retry=\(retryAfter ?? "-"): \(detail ?? "")" }
    }

    @Test func aRefusedRequestNamesItsField() {
        let answer = Answer(ProblemError(RequestError.invalid(field: "entries", detail: "at most 5 entries per restore")))
        #expect(answer == Answer(.invalidRequest, field: "entries", detail: "at most 5 entries per restore"))
        let whole = Answer(ProblemError(RequestError.invalid(field: nil, detail: "productId must have 1 to 255 characters")))
        #expect(whole == Answer(.invalidRequest, detail: "productId must have 1 to 255 characters"))
    }

    @Test(arguments: [
        (AccountError.emailTaken, Answer(.emailTaken, field: "email", detail: "an account with this email exists")),
        (.weakPassword("too short"), Answer(.weakPassword, field: "password", detail: "too short")),
        (.invalidCredentials, Answer(.invalidCredentials, detail: "email or password is wrong")),
        (.wrongPassword, Answer(.invalidCredentials, field: "password", detail: "the password is wrong")),
        (
            .noPassword,
            Answer(.invalidRequest, field: "password", detail: "this account signs in through the app's backend and has no password")
        ),
        (.accountDeleted, Answer(.unauthorized, detail: "the account was deleted")),
        (.notFound("no such device"), Answer(.notFound, detail: "no such device")),
        (.rateLimited(retryAfterSeconds: 42), Answer(.rateLimited, detail: "too many attempts; retry in 42 s", retryAfter: "42")),
    ])
    func accountErrorsAreAnsweredWithTheirProblem(error: AccountError, expected: Answer) {
        #expect(Answer(ProblemError(error)) == expected)
    }

    @Test func aPurchaseOwnedElsewhereIsAConflictWithItsReason() {
        let answer = Answer(ProblemError(SyncError.ownedByOtherAccount(reason: "the purchase is owned by another account")))
        #expect(answer == Answer(.ownedByOtherAccount, detail: "the purchase is owned by another account"))
        #expect(answer.status == 409)
    }

    @Test(arguments: [
        (
            VerificationError.refused(field: "signedPayload", detail: "the notification was refused: bad signature"),
            Answer(.invalidSignedData, field: "signedPayload", detail: "the notification was refused: bad signature")
        ),
        (.receiptRejected(detail: "status 21010"), Answer(.receiptRejected, field: "receipt", detail: "status 21010")),
        (
            .environmentRefused(field: "signedTransaction", detail: "the data comes from the Xcode environment"),
            Answer(.environmentRefused, field: "signedTransaction", detail: "the data comes from the Xcode environment")
        ),
        (
            .receiptVerifierUnavailable,
            Answer(.serviceUnavailable, detail: "Apple's verifyReceipt endpoint did not answer; retry later", retryAfter: "1")
        ),
    ])
    func verificationErrorsAreAnsweredWithTheirProblem(error: VerificationError, expected: Answer) {
        #expect(Answer(ProblemError(error)) == expected)
    }
}
