public import Configuration
public import Foundation
import StoreSyncCore

extension ServerConfiguration {
    /// The rules of the operations settings: the webhook needs a secret and a usable URL, the
    /// listening addresses must be addresses, and `/metrics` needs a port of its own.
    func validateOperations() throws(ConfigurationError) {
        if let webhookURL {
            guard let scheme = webhookURL.scheme?.lowercased(), ["http", "https"].contains(scheme),
                let host = webhookURL.host, !host.isEmpty
            // Not echoed: a receiver's URL often carries its token in the path.
            else { throw .invalid(.webhookURL, "expected an http(s) URL with a host") }
            if webhookURL.user != nil || webhookURL.password != nil {
                throw .invalid(.webhookURL, "credentials in the URL would be logged; authenticate by the signature")
            }
            guard let webhookSecret else { throw .missing(.webhookSecret) }
            if webhookSecret.utf8.count < 16 { throw .invalid(.webhookSecret, "use at least 16 characters") }
        }
        try Self.checkListenAddress(httpHost, setting: .httpHost)
        try Self.checkListenAddress(metricsHost, setting: .metricsHost)
        if let metricsPort, metricsPort == httpPort, metricsPort != 0 {
            throw .invalid(.metricsPort, "must differ from HTTP_PORT (\(httpPort))")
        }
    }

    /// Refuses a listening address that could never be bound, before the database starts and
    /// migrations run: an IP address (IPv6 with or without brackets) or a host name, never a
    /// URL or `host:port`.
    static func checkListenAddress(_ host: String, setting: Setting) throws(ConfigurationError) {
        let unbracketed = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if IPAddress(unbracketed) != nil { return }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let isHostName = host.utf8.count <= 253 && labels.allSatisfy { label in
            (1...63).contains(label.utf8.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
        guard isHostName else {
            throw .invalid(setting, "'\(host)' is not an IP address or host name (no scheme, port or path: the port is its own setting)")
        }
    }
}

extension ServerConfiguration {
    /// Reads the log format, the webhook and the metrics listener.
    mutating func readOperations(_ settings: SettingReader) throws(ConfigurationError) {
        logFormat = try Self.logFormat(settings)
        threadScheduling = try Self.threadScheduling(settings)
        webhookURL = try settings.url(.webhookURL)
        webhookSecret = settings.optional(.webhookSecret, isSecret: true)
        metricsPort = try settings.integer(.metricsPort, in: 0...65_535)
        if let host = settings.optional(.metricsHost) {
            guard metricsPort != nil else { throw .invalid(.metricsHost, "set METRICS_PORT too, or unset METRICS_HOST") }
            metricsHost = host
        }
    }

    /// `LOG_FORMAT` alone: the executable installs its log handler before anything else is read.
    ///
    /// - Parameter reader: The configuration.
    /// - Returns: The format; `.text` when unset.
    /// - Throws: ``ConfigurationError`` for a value that is neither `text` nor `json`.
    public static func logFormat(reader: ConfigReader) throws(ConfigurationError) -> LogFormat {
        try logFormat(SettingReader(reader: reader))
    }

    private static func logFormat(_ settings: SettingReader) throws(ConfigurationError) -> LogFormat {
        try settings.choice(.logFormat) ?? .text
    }

    /// `STORESYNC_THREAD_SCHEDULING` alone: the executable puts its threads in their class
    /// before the server starts any more of them.
    ///
    /// - Parameter reader: The configuration.
    /// - Returns: The class; ``ThreadScheduling/default`` when unset.
    /// - Throws: ``ConfigurationError`` for a value that is neither `batch` nor `normal`.
    public static func threadScheduling(reader: ConfigReader) throws(ConfigurationError) -> ThreadScheduling {
        try threadScheduling(SettingReader(reader: reader))
    }

    private static func threadScheduling(_ settings: SettingReader) throws(ConfigurationError) -> ThreadScheduling {
        try settings.choice(.threadScheduling) ?? .default
    }
}

extension ServerConfiguration {
    /// Where a probe on this host reaches the server these settings describe: `HTTP_HOST` and
    /// `HTTP_PORT` as `serve` reads them, an all-addresses host (`0.0.0.0`, `::`) asked on
    /// loopback. Only these two settings are read, so `storesync health` needs no others.
    ///
    /// - Parameter reader: The configuration.
    /// - Returns: The base URL, e.g. `http://127.0.0.1:8080`.
    /// - Throws: ``ConfigurationError`` for a port that is not a number from 1 to 65535.
    public static func probeURL(reader: ConfigReader) throws(ConfigurationError) -> URL {
        let settings = SettingReader(reader: reader)
        let defaults = ServerConfiguration(bundleId: "", environment: .sandbox)
        let port = try settings.integer(.httpPort, in: 1...65_535) ?? defaults.httpPort
        let host = switch settings.optional(.httpHost) ?? defaults.httpHost {
        case "0.0.0.0": "127.0.0.1"
        case "::", "[::]": "[::1]"
        case let named where named.contains(":") && !named.hasPrefix("["): "[\(named)]"
        case let named: named
        }
        guard let url = URL(string: "http://\(host):\(port)") else {
            throw .invalid(.httpHost, "'\(host)' is not a host name or address")
        }
        return url
    }
}
