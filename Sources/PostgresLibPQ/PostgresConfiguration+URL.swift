internal import Foundation

extension PostgresConfiguration {
    /// Parses a `postgres://` or `postgresql://` URL.
    ///
    /// `postgres://user:password@host:port/database?sslmode=require`; user and password may be
    /// percent-encoded; `?host=/run/postgresql` selects a unix socket directory (as does a
    /// percent-encoded path as the host); `connect_timeout` and `application_name` are accepted too.
    /// Without a database path the database is named after the user, as libpq does.
    ///
    /// - Parameter url: The URL.
    /// - Throws: ``PostgresConfigurationError`` naming what is wrong with the URL.
    public init(url: String) throws {
        guard let schemeEnd = url.range(of: "://") else { throw PostgresConfigurationError.missingScheme }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresConfigurationError.unsupportedScheme(String(scheme))
        }
        var rest = Substring(url[schemeEnd.upperBound...])
        // An `@` after the authority's end, with none before it, is a password (or user) that
        // holds `/`, `?` or `#` unencoded: split there, part of the password would be read as
        // the host or port, and echoed in the error.
        let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        if !rest[..<authorityEnd].contains("@"), rest[authorityEnd...].contains("@") {
            throw PostgresConfigurationError.unencodedUserInfo
        }
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        var queryText: Substring = ""
        if let question = rest.firstIndex(of: "?") {
            queryText = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        var pathText: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            pathText = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var user: String?, password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], part: "user")
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], part: "password")
            } else {
                user = try Self.decode(userInfo, part: "user")
            }
        }
        let (host, port) = try Self.parseHostAndPort(rest)
        let database = pathText.isEmpty ? nil : try Self.decode(pathText, part: "database")
        self.init(host: host, port: port ?? 5432, user: user?.nilIfEmpty, password: password, database: database ?? "")
        try applyQuery(queryText)
        // libpq's rule: without a database, the database is named after the user.
        if self.database.isEmpty, let user = self.user { self.database = user }
        guard !self.database.isEmpty else { throw PostgresConfigurationError.missingDatabase }
    }

    private static func parseHostAndPort(_ authority: Substring) throws -> (String?, Int?) {
        var hostPart = authority, portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw PostgresConfigurationError.invalidHost(String(authority)) }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portPart = after.dropFirst() } else if !after.isEmpty {
                throw PostgresConfigurationError.invalidHost(String(authority))
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        let port = try portPart.map { text -> Int in
            guard let value = Int(text), (1...65_535).contains(value) else { throw PostgresConfigurationError.invalidPort(String(text)) }
            return value
        }
        let host = try decode(hostPart, part: "host")
        return (host.isEmpty ? nil : host, port)
    }

    private mutating func applyQuery(_ query: Substring) throws {
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let key = String(pair.prefix { $0 != "=" })
            let value = try Self.decode(pair.dropFirst(key.count + 1), part: key)
            switch key {
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else { throw PostgresConfigurationError.invalidSSLMode(value) }
                sslMode = mode
            case "host": host = value.nilIfEmpty
            case "port":
                guard let number = Int(value), (1...65_535).contains(number) else { throw PostgresConfigurationError.invalidPort(value) }
                port = number
            case "user": user = value.nilIfEmpty
            case "password": password = value
            case "dbname": database = value
            case "connect_timeout":
                guard let seconds = Int(value), seconds >= 0 else { throw PostgresConfigurationError.invalidParameter(key) }
                connectTimeoutSeconds = seconds
            case "application_name": applicationName = value
            default: throw PostgresConfigurationError.unknownParameter(key)
            }
        }
    }

    private static func decode(_ text: Substring, part: String) throws -> String {
        guard let decoded = String(text).removingPercentEncoding else {
            throw PostgresConfigurationError.invalidPercentEncoding(part)
        }
        return decoded
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
