public import Foundation
public import StoreSyncAPI

/// What went wrong in a ``StoreSyncClient`` call, typed so an app can act on it.
public enum StoreSyncClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No response arrived: no connectivity, a timeout, a TLS failure. Retry later; purchases
    /// recorded meanwhile wait in the outbox.
    case offline
    /// The StoreSync server refused the session: signed out from another device, revoked by a
    /// password change on another device, unused too long, or its account deleted. The client
    /// has ended it on this device as ``StoreSyncClient/signOut()`` would (``StoreSyncClient/session``
    /// is `nil`), keeping the account's outbox: ask the user to sign in again, and what waits
    /// goes up then. A 401 that is not StoreSync's, such as a captive portal's, is an
    /// ``invalidInput(_:)`` from elsewhere and ends nothing.
    case unauthorized
    /// Another account owns the purchase and the server's transfer policy keeps it there.
    /// A restore the user asks for may move it, if the policy allows.
    ///
    /// - `problemType`: the problem's type URI (`https://storesync.dev/errors/owned-by-other-account`).
    /// - `detail`: the server's explanation.
    case ownedByOtherAccount(problemType: String, detail: String?)
    /// The server refused the input (a 4xx answer): a wrong password, a taken email, a
    /// transaction that failed verification. Retrying the same request will not help.
    ///
    /// A signed transaction the server refused for the App Store environment it names (Sandbox
    /// on a Production server that refuses it, an Xcode purchase on a real server) comes with
    /// the problem type `environment-refused`: final, unlike `invalid-signed-data`.
    ///
    /// A 4xx without a StoreSync problem body — a captive portal's, proxy's or firewall's page —
    /// lands here too, as an `about:blank` problem whose detail says so. An upload answered that
    /// way stays in the outbox: only the server's `invalid-signed-data`, `environment-refused`
    /// and `receipt-rejected` drop one.
    case invalidInput(Problem)
    /// The server failed (5xx, or another unexpected status); retry later.
    case server(status: Int, Problem?)
    /// Too many attempts; retry after the given number of seconds, when the server said.
    case rateLimited(retryAfter: TimeInterval?)
    /// A snapshot's signature does not verify with the pinned key, or it names another
    /// account: it was not trusted, and nothing from it was kept.
    case untrustedSnapshot
    /// The call needs a signed-in account.
    case notSignedIn
    /// The account was signed out or switched while the call was in flight; its answer was
    /// dropped so it could not land in another account's cache.
    case sessionChanged
    /// The signed transaction is not a StoreKit 2 JWS this library can read.
    case malformedTransaction(String)
    /// The server answered with a body this library cannot read.
    case malformedResponse(String)
    /// The store could not save; what the call was about is not durably kept.
    case storage(String)

    /// A one-line account of the error.
    public var description: String {
        switch self {
        case .offline: "the StoreSync server could not be reached"
        case .unauthorized: "the session is no longer valid; sign in again"
        case .ownedByOtherAccount(_, let detail): "the purchase belongs to another account" + (detail.map { ": \($0)" } ?? "")
        case .invalidInput(let problem) where !problem.isFromStoreSync: "the StoreSync server was not reached: \(problem)"
        case .invalidInput(let problem): "the server refused the request: \(problem)"
        case .server(let status, let problem): "the server failed (\(status))" + (problem.map { ": \($0)" } ?? "")
        case .rateLimited(let retryAfter): "too many requests" + (retryAfter.map { "; retry in \(Int($0)) s" } ?? "")
        case .untrustedSnapshot: "a snapshot failed signature verification with the pinned server key"
        case .notSignedIn: "no account is signed in"
        case .sessionChanged: "the account changed while the call was in flight; its answer was dropped"
        case .malformedTransaction(let detail): "not a StoreKit 2 signed transaction: \(detail)"
        case .malformedResponse(let detail): "the server's answer could not be read: \(detail)"
        case .storage(let detail): "the local store failed: \(detail)"
        }
    }

    /// Whether a failed call may succeed if tried again later (no network, server trouble),
    /// as opposed to a refusal. Uploads decide by ``refusesUploadForGood`` instead.
    var isRetriable: Bool {
        switch self {
        case .offline, .unauthorized, .server, .rateLimited, .malformedResponse, .untrustedSnapshot, .sessionChanged:
            true
        case .ownedByOtherAccount, .invalidInput, .notSignedIn, .malformedTransaction, .storage:
            false
        }
    }

    /// Whether something other than the StoreSync server answered with a 4xx of its own — a
    /// captive portal, a proxy, a firewall — so the request never reached the server: no
    /// refusal, much like being ``offline``.
    var isForeignAnswer: Bool {
        guard case .invalidInput(let problem) = self else { return false }
        return !problem.isFromStoreSync
    }

    /// Whether a failed upload is the StoreSync server's last word on it, so its outbox entry may
    /// go: the server refused the signed data itself (``ProblemType/invalidSignedData``,
    /// ``ProblemType/environmentRefused``), or another account owns the purchase (kept in the
    /// ledger for a restore).
    ///
    /// Every other failure keeps the entry queued, whatever its status: a 403 from a captive
    /// portal, or a StoreSync problem about the request rather than the purchase, says nothing
    /// about the signed transaction, and once StoreKit has finished it the outbox holds its
    /// only copy.
    var refusesUploadForGood: Bool {
        switch self {
        case .invalidInput(let problem):
            problem.refusesSignedData
        case .ownedByOtherAccount, .malformedTransaction:
            true
        case .offline, .unauthorized, .server, .rateLimited, .untrustedSnapshot, .notSignedIn, .sessionChanged,
            .malformedResponse, .storage:
            false
        }
    }
}
