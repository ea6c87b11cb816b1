import ServiceLifecycle

/// Recovers the notifications missed while no server ran, in the background as the server
/// starts: start-up does not wait for Apple.
struct NotificationRecoveryOnStart: Service {
    let recovery: NotificationRecoveryService
    let gate: StartupGate

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            try await gate.wait()
            await recovery.recoverOnStart()
        }
        try? await gracefulShutdown()
    }
}
