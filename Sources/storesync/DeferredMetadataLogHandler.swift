import Logging

/// swift-log's `StreamLogHandler` on standard error, except that metadata set on a logger is
/// only rendered when a line is written.
///
/// `StreamLogHandler` renders all of a logger's metadata each time one key is set. The server
/// sets the request id and the account on every request's logger whatever the level, and
/// most requests write no line at all: rendering at write time moves that cost to the few
/// requests that log.
struct DeferredMetadataLogHandler: LogHandler {
    private var stream: StreamLogHandler
    var metadata: Logger.Metadata = [:]

    init(label: String, metadataProvider: Logger.MetadataProvider?) {
        stream = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
    }

    var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        // A value given with the line wins over the logger's, as with StreamLogHandler.
        event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        stream.log(event: event)
    }
}
