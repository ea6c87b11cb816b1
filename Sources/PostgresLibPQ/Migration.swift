public import Foundation
internal import Crypto

/// One schema migration file, `NNNN_name.sql`.
public struct Migration: Sendable, Hashable {
    /// The number the file name starts with; migrations apply in this order.
    public let version: Int
    /// The file name without `.sql`, as recorded in `schema_migrations` (`0001_init`).
    public let name: String
    /// The SQL script.
    public let sql: String
    /// The SHA-256 of the file's bytes, hex; a changed file no longer matches what was applied.
    public let checksum: String

    /// Reads a migration file.
    ///
    /// - Parameter file: A file named `NNNN_name.sql`.
    /// - Throws: ``SchemaMigrationError`` for a bad name, unreadable file or non-UTF-8 content.
    public init(contentsOf file: URL) throws {
        let fileName = file.lastPathComponent
        guard let version = Self.version(ofFileName: fileName) else {
            throw SchemaMigrationError.invalidFileName(fileName)
        }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: file)
        } catch {
            throw SchemaMigrationError.unreadable(path: file.path)
        }
        guard let sql = String(data: bytes, encoding: .utf8) else {
            throw SchemaMigrationError.unreadable(path: file.path)
        }
        self.version = version
        self.name = String(fileName.dropLast(4))
        self.sql = sql
        self.checksum = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// The version of `NNNN_name.sql` (digits, an underscore, letters, digits, `_` or `-`), or nil.
    static func version(ofFileName fileName: String) -> Int? {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.dropLast(4)
        let digits = stem.prefix { $0.isASCII && $0.isNumber }
        let rest = stem.dropFirst(digits.count)
        guard !digits.isEmpty, rest.hasPrefix("_"), rest.count > 1,
              rest.dropFirst().allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        else { return nil }
        return Int(digits)
    }
}
