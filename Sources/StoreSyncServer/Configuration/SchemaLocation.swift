public import Foundation

/// Where the SQL migrations are: `STORESYNC_SCHEMA_DIR`, else `./Schema`, else the
/// `Schema/` of the source tree this binary was built from (tests, `make run`).
public struct SchemaLocation: Sendable {
    /// A directory holding `NNNN_name.sql` files.
    public let directory: URL

    /// Finds the migrations directory.
    ///
    /// - Parameter configured: The `STORESYNC_SCHEMA_DIR` setting, if any.
    /// - Returns: The first candidate that holds migrations.
    /// - Throws: ``ConfigurationError`` when the configured directory, or every candidate, has none.
    public static func resolve(configured: String?) throws(ConfigurationError) -> SchemaLocation {
        if let configured {
            let directory = URL(fileURLWithPath: configured, isDirectory: true)
            guard holdsMigrations(directory) else {
                throw .invalid(.schemaDirectory, "\(configured) holds no NNNN_name.sql migrations")
            }
            return SchemaLocation(directory: directory)
        }
        let candidates = [
            URL(fileURLWithPath: "Schema", isDirectory: true),
            sourceTreeSchema,
        ]
        guard let found = candidates.first(where: holdsMigrations) else {
            throw .missing(.schemaDirectory)
        }
        return SchemaLocation(directory: found)
    }

    /// `Schema/` beside `Sources/` in the tree this file was compiled from.
    public static var sourceTreeSchema: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Configuration
            .deletingLastPathComponent()  // StoreSyncServer
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // the package
            .appendingPathComponent("Schema", isDirectory: true)
    }

    private static func holdsMigrations(_ directory: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.contains { $0.hasSuffix(".sql") }
    }
}
