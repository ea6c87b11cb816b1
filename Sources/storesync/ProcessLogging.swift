import Logging

/// The process's logging: only the executable decides handlers and levels.
enum ProcessLogging {
    private static let bootstrapped: Void = LoggingSystem.bootstrap(DeferredMetadataLogHandler.init)

    /// Bootstraps swift-log once: every logger writes to standard error.
    static func bootstrap() {
        bootstrapped
    }

    /// Bootstraps swift-log once and returns a logger at `level`.
    static func makeLogger(level: Logger.Level) -> Logger {
        bootstrap()
        var logger = Logger(label: "storesync")
        logger.logLevel = level
        return logger
    }
}
