import Foundation
import StoreSyncServer
import StoreSyncTesting

extension Scenario {
    /// Runs a scenario against a fresh server wired to a stand-in of Apple's App Store Server
    /// API, and always stops the server.
    ///
    /// - Parameters:
    ///   - configure: More changes to the server's configuration.
    ///   - body: The scenario, given the cast and the stand-in.
    static func runWithAppStore(
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (Scenario, TestAppStoreAPI) async throws -> Void
    ) async throws {
        try await TestAppStoreAPI.run { apple in
            let server = try await apple.startServer { settings in
                allowManySignIns(&settings)
                configure(&settings)
            }
            do {
                try await body(Scenario(server: server), apple)
                await server.stop()
            } catch {
                await server.stop()
                throw error
            }
        }
    }

    /// A reconciliation job that looks for due subscriptions every 50 ms.
    static func eagerReconciliation(_ settings: inout ServerConfiguration) {
        settings.reconcilePerMinute = 6_000
        settings.reconcileIdleInterval = .milliseconds(50)
    }
}
