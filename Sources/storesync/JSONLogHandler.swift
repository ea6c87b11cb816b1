import Foundation
import Logging
import StoreSyncCore
import Synchronization

/// `LOG_FORMAT=json`: one JSON object per line on standard error, as log shippers read them —
/// `timestamp` (RFC 3339, milliseconds, UTC), `level`, `label`, `message`, then every metadata
/// key at the top level: the logger's, the metadata provider's (the request id while a request
/// is handled) and the line's own, in that order of precedence. Nested metadata is flattened
/// into dotted keys; a key that would overwrite one of the four fixed fields is written as
/// `metadata.<key>`.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    /// One writer at a time, so lines from several threads never interleave.
    private static let output = Mutex(())

    init(label: String, metadataProvider: Logger.MetadataProvider?) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, provided in provided } }
        if let explicit = event.metadata { merged.merge(explicit) { _, explicit in explicit } }
        if let error = event.error, merged["error"] == nil { merged["error"] = "\(error)" }
        var line = Self.line(
            timestamp: Date(), level: event.level, label: label, message: event.message.description, metadata: merged)
        line.append("\n")
        Self.output.withLock { _ in StandardError.write(line) }
    }

    /// One log line as a JSON object, without the newline.
    static func line(
        timestamp: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata
    ) -> String {
        var fields: [(String, JSONLogValue)] = [
            ("timestamp", .string(RFC3339Timestamp.string(from: timestamp) ?? "\(timestamp)")),
            ("level", .string(level.rawValue)), ("label", .string(label)), ("message", .string(message)),
        ]
        let fixed = Set(fields.map(\.0))
        for (key, value) in flattened(metadata).sorted(by: { $0.key < $1.key }) {
            fields.append((fixed.contains(key) ? "metadata.\(key)" : key, value))
        }
        return "{" + fields.map { "\(JSONLogValue.quoted($0.0)):\($0.1.json)" }.joined(separator: ",") + "}"
    }

    /// Metadata with nested dictionaries spelled as dotted keys.
    private static func flattened(_ metadata: Logger.Metadata, prefix: String = "") -> [String: JSONLogValue] {
        var result: [String: JSONLogValue] = [:]
        for (key, value) in metadata {
            let name = prefix + key
            switch value {
            case .string(let text): result[name] = .string(text)
            case .stringConvertible(let convertible): result[name] = .string(convertible.description)
            case .array(let values): result[name] = .array(values.map(\.description))
            case .dictionary(let nested): result.merge(flattened(nested, prefix: name + ".")) { first, _ in first }
            }
        }
        return result
    }
}

/// A value of a JSON log line: a string, or an array of strings.
enum JSONLogValue {
    case string(String)
    case array([String])

    var json: String {
        switch self {
        case .string(let text): Self.quoted(text)
        case .array(let texts): "[" + texts.map(Self.quoted).joined(separator: ",") + "]"
        }
    }

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
