/// A setting that stops start-up: missing when required, or not a valid value.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offending setting.
    public let setting: Setting
    /// Why it is wrong, in words an operator can act on.
    public let problem: String

    static func missing(_ setting: Setting) -> ConfigurationError {
        ConfigurationError(setting: setting, problem: "is required: \(setting.summary)")
    }

    static func invalid(_ setting: Setting, _ problem: String) -> ConfigurationError {
        ConfigurationError(setting: setting, problem: "is invalid: \(problem)")
    }

    /// One line naming the environment variable, e.g. `STORESYNC_BUNDLE_ID is required: …`.
    public var description: String { "\(setting.environmentName) \(problem)" }
}
