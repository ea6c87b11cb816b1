import Logging

/// The process's logging: only the executable decides handlers and levels.
enum ProcessLogging {
    private static let bootstrapped: Void = LoggingSystem.bootstrap(DeferredMetadataLogHandler.init)

    /// Bootstraps swift-log once (standard error) and returns a logger at `level`.
    static func makeLogger(level: Logger.Level) -> Logger {
        bootstrapped
        var logger = Logger(label: "storesync")
        logger.logLevel = level
        return logger
    }
}
