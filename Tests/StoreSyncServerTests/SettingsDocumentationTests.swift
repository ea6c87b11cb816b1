import Foundation
@testable import StoreSyncServer
import Testing

/// The README's configuration tables are where an operator looks a setting up first.
@Suite struct SettingsDocumentationTests {
    @Test func theReadmeNamesEverySetting() throws {
        let readme = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        for setting in Setting.all {
            #expect(text.contains("`\(setting.environmentName)`"), "README.md does not name \(setting.environmentName)")
        }
    }
}
