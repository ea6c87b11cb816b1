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

    /// `email-taken` and `weak-password` naming the field, `invalid-credentials`,
    /// `rate-limited` with `Retry-After`, or `service-unavailable` with `Retry-After` when every
    /// place for a password hash is taken.
    init(_ error: AccountError) {
        switch error {
        case .emailTaken:
            self.init(.emailTaken, detail: "an account with this email exists", field: "email")
        case .weakPassword(let detail):
            self.init(.weakPassword, detail: detail, field: "password")
        case .invalidCredentials:
            self.init(.invalidCredentials, detail: "email or password is wrong")
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

    /// `invalid-signed-data` naming the field, `receipt-rejected`, or `service-unavailable`
    /// with `Retry-After` when Apple's verifyReceipt does not answer.
    init(_ error: VerificationError) {
        switch error {
        case .refused(let field, let detail):
            self.init(.invalidSignedData, detail: detail, field: field)
        case .receiptRejected(let detail):
            self.init(.receiptRejected, detail: detail, field: "receipt")
        case .receiptVerifierUnavailable:
            self = .serviceUnavailable("Apple's verifyReceipt endpoint did not answer; retry later")
        }
    }
}
