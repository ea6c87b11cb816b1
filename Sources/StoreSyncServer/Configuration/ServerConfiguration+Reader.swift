public import Configuration
import Foundation
import Logging
import StoreSyncCore

extension ServerConfiguration {
    /// Reads and validates every setting.
    ///
    /// Values are parsed here rather than by the reader's typed accessors so that a value
    /// that does not parse stops start-up instead of silently falling back to a default.
    ///
    /// - Parameter reader: The configuration (command line, then environment variables, then defaults).
    /// - Throws: ``ConfigurationError`` naming the first missing or invalid setting.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        let settings = SettingReader(reader: reader)
        let environmentName = try settings.required(.environment)
        guard let environment = AppStoreEnvironment(appleName: environmentName) else {
            throw .invalid(.environment, "expected Production, Sandbox, Xcode or LocalTesting, got '\(environmentName)'")
        }
        self.init(bundleId: try settings.required(.bundleId), environment: environment)

        httpHost = settings.optional(.httpHost) ?? httpHost
        httpPort = try settings.integer(.httpPort, in: 0...65_535) ?? httpPort
        httpEventLoops = try settings.integer(.httpEventLoops, in: HTTPEventLoops.allowedCounts) ?? httpEventLoops
        database = try DatabaseSettings(settings)
        databasePoolSize = try settings.integer(.databasePoolSize, in: 1...512) ?? databasePoolSize
        databaseReadMaxLagMilliseconds =
            try settings.integer(.databaseReadMaxLag, in: 1...3_600_000) ?? databaseReadMaxLagMilliseconds
        databaseChangePollMilliseconds =
            try settings.integer(.databaseChangePoll, in: 10...600_000) ?? databaseChangePollMilliseconds
        schemaDirectory = settings.optional(.schemaDirectory)
        migrateOnStart = try settings.boolean(.migrateOnStart) ?? migrateOnStart
        appAppleId = try settings.integer(.appAppleId, in: 1...Int.max).map(Int64.init)
        trustedRootsPath = settings.optional(.trustedRoots)
        adminAPIKey = try settings.secret(.adminAPIKey, orFile: .adminAPIKeyFile)
        if let key = try settings.secret(.signingKey, orFile: .signingKeyFile) {
            guard let raw = Data(base64Encoded: key) else { throw .invalid(.signingKey, "not base64") }
            signingKey = raw
        }
        if let policy = settings.optional(.transferPolicy) {
            guard let parsed = TransferPolicy(rawValue: policy) else {
                let names = TransferPolicy.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalid(.transferPolicy, "expected one of \(names), got '\(policy)'")
            }
            transferPolicy = parsed
        }
        if let sandbox = settings.optional(.sandboxInProduction) {
            guard let parsed = SandboxInProduction(rawValue: sandbox) else {
                throw .invalid(.sandboxInProduction, "expected grant or refuse, got '\(sandbox)'")
            }
            sandboxInProduction = parsed
        }
        sessionIdleSeconds = try settings.integer(.sessionIdleSeconds, in: Self.sessionIdleRange) ?? sessionIdleSeconds
        transferCooldownSeconds = try settings.integer(.transferCooldownSeconds, in: Self.transferCooldownRange)
            ?? transferCooldownSeconds
        verifyReceiptURL = try settings.url(.verifyReceiptURL) ?? verifyReceiptURL
        verifyReceiptSandboxURL = try settings.url(.verifyReceiptSandboxURL) ?? verifyReceiptSandboxURL
        sharedSecret = settings.optional(.sharedSecret, isSecret: true)
        catalogPath = settings.optional(.catalog)
        offlineGraceSeconds = try settings.integer(.offlineGraceSeconds, in: 0...31_536_000) ?? offlineGraceSeconds
        allowUnverified = try settings.boolean(.allowUnverified) ?? allowUnverified
        maxBodyBytes = try settings.integer(.maxBodyBytes, in: 1024...(1 << 30)) ?? maxBodyBytes
        snapshotCacheEntries = try settings.integer(.snapshotCacheEntries, in: 0...10_000_000) ?? snapshotCacheEntries
        snapshotCacheBytes = try settings.integer(.snapshotCacheBytes, in: (1 << 20)...(1 << 40)) ?? snapshotCacheBytes
        passwordHashCost = try settings.integer(.bcryptCost, in: 4...31).map(UInt8.init) ?? passwordHashCost
        maxRestoreEntries = try settings.integer(.maxRestoreEntries, in: 1...1_000_000) ?? maxRestoreEntries
        appStoreAPIKey = try AppStoreAPIKeySettings(
            keyId: settings.optional(.appStoreAPIKeyId), issuerId: settings.optional(.appStoreAPIIssuerId),
            privateKeyPath: settings.optional(.appStoreAPIPrivateKey))
        appStoreAPIURL = try settings.url(.appStoreAPIURL)
        reconcilePerMinute = try settings.integer(.reconcilePerMinute, in: Self.reconcileRates) ?? reconcilePerMinute
        httpIdleTimeoutSeconds = try settings.integer(.httpIdleTimeoutSeconds, in: 1...86_400) ?? httpIdleTimeoutSeconds
        httpMaxConnections = try settings.integer(.httpMaxConnections, in: 1...1_000_000) ?? httpMaxConnections
        maxAnonymousBodyBytes = try settings.integer(.maxAnonymousBodyBytes, in: 1024...(1 << 20)) ?? maxAnonymousBodyBytes
        if let proxies = settings.optional(.trustedProxies) {
            guard let parsed = TrustedProxies(list: proxies) else {
                throw .invalid(.trustedProxies, "expected comma-separated addresses or CIDRs (10.0.0.0/8, fd00::/8), got '\(proxies)'")
            }
            trustedProxies = parsed
        }
        passwordChecks = try settings.integer(.passwordChecks, in: 1...10_000) ?? passwordChecks
        databaseStatementTimeoutSeconds =
            try settings.integer(.databaseStatementTimeoutSeconds, in: 0...86_400) ?? databaseStatementTimeoutSeconds
        databaseLockTimeoutSeconds = try settings.integer(.databaseLockTimeoutSeconds, in: 0...86_400) ?? databaseLockTimeoutSeconds
        logLevel = try Self.logLevel(settings) ?? logLevel
        try readOperations(settings)
        try validate()
    }
}

extension ServerConfiguration {
    /// `LOG_LEVEL`, by name in any letter case; `nil` when unset.
    static func logLevel(_ settings: SettingReader) throws(ConfigurationError) -> Logger.Level? {
        guard let level = settings.optional(.logLevel) else { return nil }
        guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
            throw .invalid(.logLevel, "expected trace, debug, info, notice, warning, error or critical, got '\(level)'")
        }
        return parsed
    }

    /// From ten minutes (a session's use is recorded at most once a minute) to ten years.
    static let sessionIdleRange = 600...315_360_000
}

/// Reads raw strings and parses them strictly, naming the setting in every error.
struct SettingReader {
    let reader: ConfigReader

    /// The setting's value without surrounding whitespace or line breaks (a key file's newline
    /// carried into a variable, e.g. a Kubernetes secret made from the file, would make an
    /// admin key no request can match); `nil` when unset or blank.
    func optional(_ setting: Setting, isSecret: Bool = false) -> String? {
        guard let value = reader.string(forKey: ConfigKey(setting.key), isSecret: isSecret) else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    func required(_ setting: Setting) throws(ConfigurationError) -> String {
        guard let value = optional(setting) else { throw .missing(setting) }
        return value
    }

    func integer(_ setting: Setting, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let text = optional(setting) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .invalid(setting, "expected a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// One of `Choice`'s cases by its name, in any letter case; `nil` when unset.
    func choice<Choice: RawRepresentable & CaseIterable>(_ setting: Setting, of _: Choice.Type = Choice.self)
        throws(ConfigurationError) -> Choice? where Choice.RawValue == String
    {
        guard let text = optional(setting) else { return nil }
        guard let choice = Choice(rawValue: text.lowercased()) else {
            let names = Choice.allCases.map(\.rawValue)
            let expected = names.count > 1 ? "\(names.dropLast().joined(separator: ", ")) or \(names.last!)" : names.joined()
            throw .invalid(setting, "expected \(expected), got '\(text)'")
        }
        return choice
    }

    func boolean(_ setting: Setting) throws(ConfigurationError) -> Bool? {
        guard let text = optional(setting) else { return nil }
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw .invalid(setting, "expected true or false, got '\(text)'")
        }
    }

    /// A secret given as a value, or else as the trimmed text of the file `file` names (a docker
    /// secret, a key file); the value wins.
    func secret(_ setting: Setting, orFile file: Setting) throws(ConfigurationError) -> String? {
        if let value = optional(setting, isSecret: true) { return value }
        return try fileContents(file)
    }

    /// The trimmed text of the file a `…_FILE` setting names.
    func fileContents(_ setting: Setting) throws(ConfigurationError) -> String? {
        guard let path = optional(setting) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else { throw .invalid(setting, "cannot read \(path)") }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .invalid(setting, "\(path) is empty") }
        return text
    }

    func url(_ setting: Setting) throws(ConfigurationError) -> URL? {
        guard let text = optional(setting) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil
        else {
            // Only the scheme is echoed: a URL may carry a token in its path or credentials.
            let given = URL(string: text)?.scheme.map { "a \($0): URL" } ?? "no scheme://host"
            throw .invalid(setting, "expected an http(s) URL with a host, got \(given)")
        }
        return url
    }
}
