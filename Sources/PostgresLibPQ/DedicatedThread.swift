internal import Foundation

/// Blocking work that may take seconds — waiting for `initdb` or `pg_ctl`, a `CREATE DATABASE`
/// — run on a thread started for it alone.
///
/// Not on `NIOThreadPool.singleton`: it has one thread per core and the server hashes
/// passwords there, so work that holds a thread for seconds (clusters of test suites running
/// side by side starting at once) would stall every sign-up behind it. Starting a thread costs
/// microseconds; the work it runs costs milliseconds to seconds.
package enum DedicatedThread {
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
