import ArgumentParser

/// `storesync serve | migrate | keygen | health`: the executable. It parses the command line, reads
/// configuration and runs what StoreSyncServer builds; it owns no route, rule or SQL of its own,
/// and only it decides log levels and handlers and bootstraps metrics.
@main
struct StoreSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storesync",
        abstract: "Self-hosted App Store entitlement sync.",
        subcommands: [ServeCommand.self, MigrateCommand.self, KeygenCommand.self, HealthCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
