import Crypto
import Foundation
import Logging
import PostgresLibPQ
import StoreSyncAPI

/// Accounts and device sessions: sign-up, sign-in, sign-out and bearer-token lookup; the
/// account's lifecycle (deletion, password, devices) and accounts of the app's own users are
/// in extensions.
struct AccountService: Sendable {
    let pool: ConnectionPool
    let hasher: PasswordHasher
    let throttle: LoginThrottle
    let sessionCache: SessionCache
    /// Told at once when an account is deleted here (other instances hear it from the change feed).
    let snapshots: SnapshotService
    /// A session unused this long is over.
    let sessionIdle: TimeInterval
    /// Appends the deletion's events (and queues their webhook deliveries).
    let events: EventRepository
    let now: @Sendable () -> Date
    let logger: Logger

    let accounts = AccountRepository()
    let sessions = SessionRepository()

    /// Creates an account and signs the device in; attempts are throttled per client address
    /// (``admittedPasswordHash(_:clientAddress:)``).
    func signUp(_ credentials: Credentials, clientAddress: String?) async throws -> SessionResponse {
        let email = CredentialRules.normalize(email: credentials.email)
        if let problem = CredentialRules.problem(withEmail: email) { throw RequestError.invalid(field: "email", detail: problem) }
        if let problem = CredentialRules.problem(withPassword: credentials.password, email: email) {
            throw AccountError.weakPassword(problem)
        }
        let deviceName = try Self.validated(deviceName: credentials.deviceName)
        let now = now()
        let account = AccountRecord(
            accountId: UUID(), email: credentials.email.trimmingCharacters(in: .whitespacesAndNewlines),
            passwordHash: try await admittedPasswordHash(credentials.password, clientAddress: clientAddress),
            appAccountToken: UUID())
        let session: SessionResponse
        do {
            session = try await pool.withTransaction { connection in
                try await accounts.insert(account, normalizedEmail: email, on: connection)
                return try await startSession(of: account, deviceName: deviceName, now: now, on: connection)
            }
        } catch let error as PostgresError where error.code == .uniqueViolation {
            throw AccountError.emailTaken
        }
        logger.info("account created", metadata: ["storesync.account_id": "\(account.accountId)"])
        return session
    }

    /// Signs a device in. An unknown email and a wrong password get the same answer in the
    /// same time; attempts are throttled per email and per client address (``authenticate(email:password:clientAddress:)``).
    ///
    /// The session is created only while the account still has the password that was checked:
    /// bcrypt takes a quarter of a second, and a password change committing meanwhile must not
    /// leave a session opened with the old password behind it.
    func signIn(_ credentials: Credentials, clientAddress: String?) async throws -> SessionResponse {
        let email = CredentialRules.normalize(email: credentials.email)
        let deviceName = try Self.validated(deviceName: credentials.deviceName)
        let account = try await authenticate(email: email, password: credentials.password, clientAddress: clientAddress)
        let now = now()
        let (session, replaced) = try await pool.withTransaction { connection in
            guard try await accounts.lockedPasswordHash(of: account.accountId, on: connection) == account.passwordHash else {
                throw AccountError.invalidCredentials
            }
            var deviceId = UUID()
            var replaced: Data?
            if let requested = credentials.deviceId,
                let previous = try await sessions.lockedTokenHash(accountId: account.accountId, deviceId: requested, on: connection)
            {
                (deviceId, replaced) = (requested, previous)
            }
            let session = try await startSession(
                of: account, deviceName: deviceName, deviceId: deviceId, now: now, on: connection)
            return (session, replaced)
        }
        // The device's old token stops working here at once, as a sign-out's does; other
        // instances hear it from the change feed.
        if let replaced { sessionCache.invalidate(tokenHash: replaced) }
        return session
    }

    /// Signs the device out: its token stops working at once here, and on every other instance
    /// as soon as the change feed tells it.
    func signOut(_ device: DeviceIdentity) async throws {
        let ended = try await pool.withConnection { connection in
            try await sessions.delete(accountId: device.accountId, deviceId: device.deviceId, on: connection)
        }
        if let ended { sessionCache.invalidate(tokenHash: ended) }
    }

    /// The device a bearer token belongs to while its session is in use; from the session
    /// cache when it may answer. A session unused for ``sessionIdle`` is over.
    func device(forToken token: String) async throws -> DeviceIdentity? {
        guard let hash = BearerToken.hash(of: token) else { return nil }
        let now = now()
        let (cached, generation) = sessionCache.device(tokenHash: hash, now: now)
        if let cached { return cached }
        let device = try await pool.withConnection {
            try await sessions.device(tokenHash: hash, now: now, idleSince: now.addingTimeInterval(-sessionIdle), on: $0)
        }
        if let device { sessionCache.store(device, tokenHash: hash, readAt: generation, now: now) }
        return device
    }

    /// A new device session of an account, in the caller's database transaction.
    ///
    /// - Throws: ``AccountError/accountDeleted`` when the account was deleted since it was read
    ///   (the session's row cannot reference it).
    func startSession(
        of account: AccountRecord, deviceName: String?, deviceId: UUID = UUID(), now: Date, on connection: PostgresConnection
    ) async throws -> SessionResponse {
        let token = BearerToken()
        do {
            try await sessions.upsert(
                accountId: account.accountId, deviceId: deviceId, tokenHash: token.hash, deviceName: deviceName, now: now,
                on: connection)
        } catch let error as PostgresError where error.code == .foreignKeyViolation {
            throw AccountError.accountDeleted
        }
        return SessionResponse(
            accountId: account.accountId, appAccountToken: account.appAccountToken, token: token.value, deviceId: deviceId)
    }

    static func validated(deviceName: String?) throws -> String? {
        guard let name = deviceName?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return nil }
        if let problem = CredentialRules.problem(withDeviceName: name) {
            throw RequestError.invalid(field: "deviceName", detail: problem)
        }
        return name
    }
}

/// A device's bearer token: 256 random bits, shown once, stored only as its SHA-256.
struct BearerToken {
    let value: String
    let hash: Data

    init() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        value = Data(bytes).base64URLEncoded
        hash = Data(SHA256.hash(data: Data(value.utf8)))
    }

    /// The stored form of a presented token; `nil` for text that cannot be a token.
    static func hash(of token: String) -> Data? {
        guard token.utf8.count == 43, token.utf8.allSatisfy({ $0.isBase64URL }) else { return nil }
        return Data(SHA256.hash(data: Data(token.utf8)))
    }
}

extension Data {
    /// Base64url without padding (RFC 4648 §5).
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension UInt8 {
    fileprivate var isBase64URL: Bool {
        (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || (0x30...0x39).contains(self) || self == 0x2D
            || self == 0x5F
    }
}
