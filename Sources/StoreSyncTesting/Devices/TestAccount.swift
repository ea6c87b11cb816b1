import Foundation

/// Accounts the tests sign up; bcrypt cost is 4 on the test server.
public enum TestAccount {
    /// The password of every test account (the same as ``TestServer/password``).
    public static let password = TestServer.password

    /// A unique email.
    ///
    /// - Returns: `device-<random>@example.com`.
    public static func email() -> String { "device-\(UUID().uuidString.prefix(8).lowercased())@example.com" }
}
