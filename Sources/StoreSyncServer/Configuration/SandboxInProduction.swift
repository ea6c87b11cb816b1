/// What a Production server does with Sandbox-signed data (DESIGN §4, *Environments*).
///
/// App Review and TestFlight buy in the sandbox against the production app, so a Production
/// server always verifies Sandbox data, exactly as strictly as production data; this setting
/// decides whether it then grants it. Xcode and LocalTesting data are never taken by a
/// Production server.
public enum SandboxInProduction: String, Sendable, Hashable, CaseIterable {
    /// Sandbox purchases grant their entitlements, marked `environment: sandbox` (the default).
    case grant
    /// Sandbox purchases are rejected, with a reason naming `STORESYNC_SANDBOX_IN_PRODUCTION`.
    /// The setting decides what is taken in: Sandbox purchases stored while it was `grant`
    /// keep granting.
    case refuse
}
