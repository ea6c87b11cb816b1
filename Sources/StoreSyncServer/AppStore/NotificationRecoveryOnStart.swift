import ServiceLifecycle

/// Recovers the notifications missed while no server ran, in the background as the server
/// starts: start-up does not wait for Apple. A pass that fails (Apple or the database not
/// reachable yet) is tried again after `firstRetry`, doubling up to an hour, until one passes:
/// a refund missed while the server was down must not wait for the next restart.
struct NotificationRecoveryOnStart: Service {
    let recovery: NotificationRecoveryService
    let gate: StartupGate
    let firstRetry: Duration

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            try await gate.wait()
            await recovery.recoverOnStart(firstRetry: firstRetry)
        }
        try? await gracefulShutdown()
    }
}
