import AppStoreVerification
import Foundation
import Hummingbird
import StoreSyncAPI

// How each error a service throws is answered: the problem type, status, field, detail and
// headers a client sees. Services know nothing of HTTP; this is the one place that does.

extension ProblemError {
    /// `invalid-request`, naming the field.
    init(_ error: RequestError) {
        switch error {
        case .invalid(let field, let detail):
            self.init(.invalidRequest, detail: detail, field: field)
        }
    }

    /// `email-taken` and `weak-password` naming the field, `invalid-credentials` (a wrong
    /// re-checked password names `password`), `unauthorized` for an account deleted meanwhile,
    /// `not-found`, `invalid-request` for a password change without a password,
    /// `rate-limited` with `Retry-After`, or `service-unavailable` with `Retry-After` when every
    /// place for a password hash is taken.
    init(_ error: AccountError) {
        switch error {
        case .emailTaken:
            self.init(.emailTaken, detail: "an account with this email exists", field: "email")
        case .weakPassword(let detail, let field):
            self.init(.weakPassword, detail: detail, field: field)
        case .invalidCredentials:
            self.init(.invalidCredentials, detail: "email or password is wrong")
        case .wrongPassword:
            self.init(.invalidCredentials, detail: "the password is wrong", field: "password")
        case .noPassword:
            self.init(
                .invalidRequest, detail: "this account signs in through the app's backend and has no password",
                field: "password")
        case .accountDeleted:
            self = .unauthorized("the account was deleted")
        case .notFound(let detail):
            self = .notFound(detail)
        case .appAccountTokenConflict(let detail):
            self.init(.conflict, detail: detail, field: "appAccountToken")
        case .rateLimited(let seconds):
            self.init(
                .rateLimited, status: .tooManyRequests, detail: "too many attempts; retry in \(seconds) s",
                headers: [.retryAfter: String(seconds)])
        case .busy(let seconds):
            self.init(
                .serviceUnavailable, detail: "too many passwords are being checked; retry in \(seconds) s",
                headers: [.retryAfter: String(seconds)])
        }
    }

    /// `owned-by-other-account`.
    init(_ error: SyncError) {
        switch error {
        case .ownedByOtherAccount(let reason):
            self.init(.ownedByOtherAccount, detail: reason)
        }
    }

    /// `invalid-signed-data` or `environment-refused` naming the field, `receipt-rejected`, or
    /// `service-unavailable` with `Retry-After` when Apple's verifyReceipt does not answer.
    init(_ error: VerificationError) {
        switch error {
        case .refused(let field, let detail):
            self.init(.invalidSignedData, detail: detail, field: field)
        case .environmentRefused(let field, let detail):
            self.init(.environmentRefused, detail: detail, field: field)
        case .receiptRejected(let detail):
            self.init(.receiptRejected, detail: detail, field: "receipt")
        case .receiptVerifierUnavailable:
            self = .serviceUnavailable("Apple's verifyReceipt endpoint did not answer; retry later")
        }
    }
}

extension ProblemError {
    /// `appstore-api-not-configured` naming the missing settings; for Apple's answers:
    /// `not-found`, `service-unavailable` with `Retry-After` when Apple limits or fails
    /// (retryable), `invalid-request` for an id Apple's rules refuse, `appstore-api-error` (502)
    /// for the rest.
    init(_ error: AppStoreAPIFailure) {
        switch error {
        case .notConfigured(let missing):
            let names = missing.map(\.environmentName).joined(separator: ", ")
            self.init(
                .appStoreAPINotConfigured,
                detail: "the App Store Server API is not configured: set \(names) (the .p8 key's path)")
        case .apple(.notFound(let payload)):
            self.init(.notFound, detail: "the App Store Server API knows no such id (\(payload))")
        case .apple(.invalidArgument(let detail)):
            self.init(.invalidRequest, detail: detail)
        case .apple(.rateLimited(let retryAfter, _)):
            let seconds = retryAfter.map { max(1, Int($0.timeIntervalSinceNow.rounded(.up))) } ?? 60
            self.init(
                .serviceUnavailable, detail: "the App Store Server API is rate limiting; retry in \(seconds) s",
                headers: [.retryAfter: String(seconds)])
        case .apple(let failure) where error.isTransient:
            self.init(.serviceUnavailable, detail: "\(failure); retry later", headers: [.retryAfter: "60"])
        case .apple(let failure):
            self.init(.appStoreAPIError, detail: "\(failure)")
        }
    }
}
