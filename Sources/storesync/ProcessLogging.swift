import Logging
import StoreSyncServer
import Synchronization

/// The process's logging: only the executable decides handlers and levels. Every handler adds
/// the id of the request being handled (``StoreSyncServer/RequestLogMetadata``).
enum ProcessLogging {
    private static let bootstrapped = Mutex<LogFormat?>(nil)

    /// The format the process logs in, once chosen: start-up failures follow it, so a log
    /// shipper reading JSON lines reads why the process ended too.
    static var format: LogFormat? { bootstrapped.withLock { $0 } }

    /// Bootstraps swift-log once: every logger writes to standard error, as text or JSON lines.
    static func bootstrap(format: LogFormat = .text) {
        let first = bootstrapped.withLock { chosen in
            defer { chosen = chosen ?? format }
            return chosen == nil
        }
        guard first else { return }
        LoggingSystem.bootstrap(
            { label, provider in
                switch format {
                case .text: DeferredMetadataLogHandler(label: label, metadataProvider: provider)
                case .json: JSONLogHandler(label: label, metadataProvider: provider)
                }
            },
            metadataProvider: RequestLogMetadata.provider)
    }

    /// Bootstraps swift-log once and returns a logger at `level`.
    static func makeLogger(level: Logger.Level, format: LogFormat = .text) -> Logger {
        bootstrap(format: format)
        var logger = Logger(label: "storesync")
        logger.logLevel = level
        return logger
    }
}
