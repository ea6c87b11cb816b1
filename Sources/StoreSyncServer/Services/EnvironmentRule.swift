import StoreSyncCore

/// Which App Store environments a server takes data from: one rule for StoreKit 2
/// transactions, legacy receipts and Server Notifications alike (DESIGN §4, *Environments*).
///
/// A server takes its own environment's data. A Production server also takes Sandbox data
/// (App Review and TestFlight buy in the sandbox against the production app), verified exactly
/// as strictly, and grants it unless `STORESYNC_SANDBOX_IN_PRODUCTION=refuse`. Xcode and
/// LocalTesting data are never taken by a Production server.
struct EnvironmentRule: Sendable {
    /// `STORESYNC_ENVIRONMENT`.
    let server: AppStoreEnvironment
    let sandboxInProduction: SandboxInProduction

    /// Why data of `environment` is not taken; `nil` when it is.
    func refusal(of environment: AppStoreEnvironment) -> String? {
        if environment == server { return nil }
        if server == .production, environment == .sandbox {
            switch sandboxInProduction {
            case .grant: return nil
            case .refuse:
                return "Sandbox purchases are refused by this Production server (STORESYNC_SANDBOX_IN_PRODUCTION=refuse)"
            }
        }
        let taken = server == .production ? "Production and Sandbox data" : "\(server.appleName) data only"
        return "the data comes from the \(environment.appleName) environment; this \(server.appleName) server takes \(taken)"
    }
}
