internal import Foundation

/// Blocking work that may take seconds — waiting for `initdb` or `pg_ctl`, a `CREATE DATABASE`
/// — run on a thread started for it alone.
///
/// Not on `NIOThreadPool.singleton`: it has one thread per core (two on our machines) and the
/// server hashes passwords there. Test suites run side by side in one process, so a few
/// clusters starting at once held both threads for seconds and every sign-up of another
/// suite's server waited behind them (past its 5 s deadline in CI). Starting a thread costs
/// microseconds; the work it runs costs milliseconds to seconds.
package enum ThreadOfItsOwn {
    /// Runs `work` on a new thread and answers what it returned or threw.
    package static func run<Value: Sendable>(
        named name: String, _ work: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.name = name
            thread.start()
        }
    }
}
