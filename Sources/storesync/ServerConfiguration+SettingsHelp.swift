import Foundation
import StoreSyncServer

extension ServerConfiguration {
    /// The settings table shown by `storesync serve --help`.
    static var settingsHelp: String {
        let width = Setting.all.map(\.environmentName.count).max() ?? 0
        let lines = Setting.all.map { setting in
            setting.environmentName.padding(toLength: width + 2, withPad: " ", startingAt: 0) + setting.summary
        }
        return """
            Configuration, as environment variables or as options of the same name: HTTP_PORT=8081 \
            or --http-port 8081 (an option wins over the environment).
            """ + "\n" + lines.joined(separator: "\n")
    }
}
