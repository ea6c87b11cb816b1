public import Foundation

/// Scratch directories for on-disk caches, all under one directory per test process that is
/// removed when the process exits.
public enum TestDirectory {
    private static let root: URL = {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("storesync-client-tests-\(ProcessInfo.processInfo.processIdentifier)")
        atexit { try? FileManager.default.removeItem(at: TestDirectory.root) }
        return root
    }()

    /// A new, not yet created directory under the process's scratch root.
    ///
    /// - Returns: Its URL.
    public static func make() -> URL {
        root.appendingPathComponent(UUID().uuidString)
    }
}
