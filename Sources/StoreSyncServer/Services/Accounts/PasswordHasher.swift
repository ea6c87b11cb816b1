import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// bcrypt, run on NIO's blocking thread pool: a hash costs tens to hundreds of milliseconds
/// of CPU and must never stall Swift's cooperative pool.
///
/// At most `capacity` hashes run or wait at once (`STORESYNC_PASSWORD_CHECKS`): one more is
/// refused with ``AccountError/busy(retryAfterSeconds:)`` at once rather than queued, so a
/// flood of sign-ups or sign-ins cannot build a queue of CPU work that takes minutes to drain
/// while every legitimate user waits at its end.
struct PasswordHasher: Sendable {
    /// bcrypt's work factor (4…31); each step doubles the cost.
    let cost: UInt8
    private let threadPool: NIOThreadPool
    private let places: HashingPlaces

    /// A hash of a password no account has, checked when the email is unknown so that an
    /// unknown email and a wrong password take the same time.
    private let decoy: String

    init(cost: UInt8, capacity: Int = 32, threadPool: NIOThreadPool = .singleton) {
        self.cost = cost
        self.threadPool = threadPool
        places = HashingPlaces(capacity: capacity)
        decoy = Bcrypt.hash("storesync-decoy-password", cost: cost)
    }

    /// Refuses at once when every place is taken: a caller checks this before it spends
    /// anything else (a throttle reservation) on an attempt that would be refused anyway.
    ///
    /// - Throws: ``AccountError/busy(retryAfterSeconds:)``.
    func ensureRoom() throws {
        if places.isFull { throw AccountError.busy(retryAfterSeconds: 1) }
    }

    func hash(_ password: String) async throws -> String {
        try await places.occupying {
            try await threadPool.runIfActive { [cost] in Bcrypt.hash(password, cost: cost) }
        }
    }

    /// Whether `password` is the one `hash` was made from. A password holding a NUL byte
    /// never is: bcrypt stops reading at that byte, so it would match any password that merely
    /// starts like it (sign-up refuses such passwords; the hash still runs, for equal timing).
    func verify(_ password: String, against hash: String?) async throws -> Bool {
        let holdsNUL = password.utf8.contains(0)
        return try await places.occupying {
            try await threadPool.runIfActive { [decoy] in
                let matches = Bcrypt.verify(password, hash: hash ?? decoy)
                return matches && hash != nil && !holdsNUL
            }
        }
    }
}

/// The places for password hashes, running or queued on the thread pool; shared by every copy
/// of a ``PasswordHasher``.
private final class HashingPlaces: Sendable {
    let capacity: Int
    private let taken = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var isFull: Bool { taken.load(ordering: .relaxed) >= capacity }

    func occupying<R: Sendable>(_ body: () async throws -> R) async throws -> R {
        let (_, now) = taken.add(1, ordering: .relaxed)
        guard now <= capacity else {
            taken.subtract(1, ordering: .relaxed)
            throw AccountError.busy(retryAfterSeconds: 1)
        }
        defer { taken.subtract(1, ordering: .relaxed) }
        return try await body()
    }
}
