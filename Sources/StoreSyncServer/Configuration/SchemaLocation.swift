public import Foundation

/// Where the SQL migrations are: `STORESYNC_SCHEMA_DIR`, else the `Schema/` bundled as a
/// resource of the server library.
///
/// Never the working directory: a server started from a directory someone else can write to
/// would otherwise run whatever SQL it found in its `./Schema`, as the database owner.
public struct SchemaLocation: Sendable {
    /// A directory holding `NNNN_name.sql` files.
    public let directory: URL

    /// Finds the migrations directory.
    ///
    /// - Parameter configured: The `STORESYNC_SCHEMA_DIR` setting, if any.
    /// - Returns: The configured directory, or the bundled one.
    /// - Throws: ``ConfigurationError`` when the configured directory, or the bundle, has none.
    public static func resolve(configured: String?) throws(ConfigurationError) -> SchemaLocation {
        if let configured {
            let directory = URL(fileURLWithPath: configured, isDirectory: true)
            guard holdsMigrations(directory) else {
                throw .invalid(.schemaDirectory, "\(configured) holds no NNNN_name.sql migrations")
            }
            return SchemaLocation(directory: directory)
        }
        guard let bundled = bundledSchema, holdsMigrations(bundled) else { throw .missing(.schemaDirectory) }
        return SchemaLocation(directory: bundled)
    }

    /// Where the server library's resource bundle keeps the migrations of `Schema/` (its
    /// resources are flat: the `.sql` files lie beside the OpenAPI document).
    public static var bundledSchema: URL? {
        Bundle.module.resourceURL
    }

    private static func holdsMigrations(_ directory: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.contains { $0.hasSuffix(".sql") }
    }
}
