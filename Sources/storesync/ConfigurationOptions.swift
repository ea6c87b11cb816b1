import ArgumentParser
import Configuration
import Foundation
import StoreSyncServer

/// The settings a command reads: options on the command line first, then environment
/// variables, then each setting's default — `--http-port 8081` wins over `HTTP_PORT`.
struct ConfigurationOptions: ParsableArguments {
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("Settings as options: --http-port 8081 or --http-port=8081 (see above).", valueName: "setting"))
    var settings: [String] = []

    /// The configuration, or exit 2 naming an argument that is not a setting with its value.
    func reader() throws(ExitCode) -> ConfigReader {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        var arguments = settings.makeIterator()
        while let argument = arguments.next() {
            let (option, inlineValue) = Self.split(argument)
            guard let setting = Setting.all.first(where: { $0.commandLineOption == option }) else {
                // The option alone: a mistyped `--databse-url=…` would print its password.
                throw StartupFailure.exit("\(option) is not a setting (storesync serve --help lists them)")
            }
            // An empty value (`--database-url="$UNSET"`) would hide the environment's and
            // fall back to the default: a server on an embedded database instead of the real one.
            guard let value = inlineValue ?? arguments.next(), !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            else {
                throw StartupFailure.exit("\(option) needs a value")
            }
            values[AbsoluteConfigKey(ConfigKey(setting.key))] = ConfigValue(.string(value), isSecret: false)
        }
        return ConfigReader(providers: [
            InMemoryProvider(name: "command line", values: values),
            EnvironmentVariablesProvider(),
        ])
    }

    /// `--name=value` as its two parts; `--name` alone with no value.
    private static func split(_ argument: String) -> (option: String, value: String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
