import Logging
import NIOConcurrencyHelpers

/// A log handler that keeps what it is given, to check what a component says and how loudly.
struct CapturingLogHandler: LogHandler {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
    }

    final class Store: Sendable {
        private let entries = NIOLockedValueBox<[Entry]>([])
        var all: [Entry] { entries.withLockedValue { $0 } }
        func append(_ entry: Entry) { entries.withLockedValue { $0.append(entry) } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.append(Entry(level: event.level, message: "\(event.message)"))
    }

    /// A logger writing into a fresh store.
    static func logger() -> (Logger, Store) {
        let store = Store()
        return (Logger(label: "capture") { _ in CapturingLogHandler(store: store) }, store)
    }
}
