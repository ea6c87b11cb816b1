import ArgumentParser

/// `storesync serve | migrate | keygen | health`: reads configuration and runs the service; the
/// application itself is built by StoreSyncServer.
@main
struct StoreSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storesync",
        abstract: "Self-hosted App Store entitlement sync.",
        subcommands: [ServeCommand.self, MigrateCommand.self, KeygenCommand.self, HealthCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
