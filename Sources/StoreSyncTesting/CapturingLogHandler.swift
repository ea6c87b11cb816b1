public import Logging
import NIOConcurrencyHelpers

/// A log handler that keeps what it is given, to check what a component says and how loudly.
public struct CapturingLogHandler: LogHandler {
    /// One message logged.
    public struct Entry: Sendable {
        /// How loudly.
        public var level: Logger.Level
        /// What was said.
        public var message: String
        /// The logger's metadata with the entry's own.
        public var metadata: Logger.Metadata = [:]
    }

    /// Where a logger's entries are kept.
    public final class Store: Sendable {
        private let entries = NIOLockedValueBox<[Entry]>([])
        /// Every entry so far, oldest first.
        public var all: [Entry] { entries.withLockedValue { $0 } }
        func append(_ entry: Entry) { entries.withLockedValue { $0.append(entry) } }
    }

    let store: Store
    /// The logger's metadata.
    public var metadata: Logger.Metadata = [:]
    /// The level below which nothing is kept.
    public var logLevel: Logger.Level = .trace

    /// A metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Keeps an entry.
    public func log(event: LogEvent) {
        store.append(
            Entry(level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
    }

    /// A logger writing into a fresh store.
    ///
    /// - Returns: The logger, and where its entries are kept.
    public static func logger() -> (Logger, Store) {
        let store = Store()
        return (Logger(label: "capture") { _ in CapturingLogHandler(store: store) }, store)
    }
}
