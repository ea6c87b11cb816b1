import HummingbirdBcrypt
import NIOPosix

/// bcrypt, run on NIO's blocking thread pool: a hash costs tens to hundreds of milliseconds
/// of CPU and must never stall Swift's cooperative pool.
struct PasswordHasher: Sendable {
    /// bcrypt's work factor (4…31); each step doubles the cost.
    let cost: UInt8
    private let threadPool: NIOThreadPool

    /// A hash of a password no account has, checked when the email is unknown so that an
    /// unknown email and a wrong password take the same time.
    private let decoy: String

    init(cost: UInt8, threadPool: NIOThreadPool = .singleton) {
        self.cost = cost
        self.threadPool = threadPool
        decoy = Bcrypt.hash("storesync-decoy-password", cost: cost)
    }

    func hash(_ password: String) async throws -> String {
        try await threadPool.runIfActive { [cost] in Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` is the one `hash` was made from. A password holding a NUL byte
    /// never is: bcrypt stops reading at that byte, so it would match any password that merely
    /// starts like it (sign-up refuses such passwords; the hash still runs, for equal timing).
    func verify(_ password: String, against hash: String?) async throws -> Bool {
        let holdsNUL = password.utf8.contains(0)
        return try await threadPool.runIfActive { [decoy] in
            let matches = Bcrypt.verify(password, hash: hash ?? decoy)
            return matches && hash != nil && !holdsNUL
        }
    }
}
