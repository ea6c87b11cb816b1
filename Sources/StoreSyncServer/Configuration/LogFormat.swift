/// How log lines are written: `LOG_FORMAT`.
public enum LogFormat: String, Sendable, Hashable, CaseIterable {
    /// swift-log's text lines, for people.
    case text
    /// One JSON object per line (timestamp, level, label, message, metadata), for log shippers.
    case json
}
