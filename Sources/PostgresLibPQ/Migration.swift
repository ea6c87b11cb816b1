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
    /// The SHA-256 of the script's statements without their comments (``MigrationStatements``),
    /// hex: a changed statement no longer matches what was applied; a mended comment still does.
    public let checksum: String
    /// The SHA-256 of the file's bytes, hex: the checksum databases migrated before checksums left
    /// comments out recorded, accepted once and then replaced by ``checksum``.
    public let fileChecksum: String
    /// File checksums an earlier text of this file was applied under, accepted like
    /// ``fileChecksum``: each is named in the file by a comment line
    /// `-- applied-as-file-sha256: <hex>`, so that a comment mended after it was applied under a
    /// file checksum keeps those databases valid.
    public let earlierFileChecksums: [String]
    /// Whether servers built before this migration keep working on the schema it leaves (it
    /// only adds what they never read): said in the file by the comment line
    /// `-- older-binaries: compatible`. Without it, a build that lacks this migration refuses
    /// to run on a database that has it, and running ones stop (``SchemaMigrator``).
    public let keepsOlderBinariesWorking: Bool

    /// Reads a migration file.
    ///
    /// - Parameter file: A file named `NNNN_name.sql`.
    /// - Throws: ``SchemaMigrationError`` for a bad name, unreadable file, non-UTF-8 content, or
    ///   a script that begins, commits or rolls back a transaction itself.
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
        if let statement = MigrationStatements.transactionControl(in: sql) {
            throw SchemaMigrationError.controlsTransaction(name: String(fileName.dropLast(4)), statement: statement)
        }
        self.version = version
        self.name = String(fileName.dropLast(4))
        self.sql = sql
        self.checksum = Self.hex(SHA256.hash(data: Data(MigrationStatements.text(of: sql).utf8)))
        self.fileChecksum = Self.hex(SHA256.hash(data: bytes))
        self.earlierFileChecksums = Self.earlierFileChecksums(in: sql)
        self.keepsOlderBinariesWorking = sql.split(whereSeparator: \.isNewline).contains {
            $0.trimmingCharacters(in: .whitespaces) == Self.compatibleMarker
        }
    }

    /// The comment line that marks a migration older builds keep working on.
    static let compatibleMarker = "-- older-binaries: compatible"

    /// Whether a database that recorded `checksum` applied this migration's statements.
    func matches(recorded checksum: String) -> Bool {
        checksum == self.checksum || isEarlierFileChecksum(checksum)
    }

    /// Whether `checksum` is a whole-file checksum this migration was applied under.
    func isEarlierFileChecksum(_ checksum: String) -> Bool {
        checksum == fileChecksum || earlierFileChecksums.contains(checksum)
    }

    private static let earlierChecksumMarker = "-- applied-as-file-sha256:"

    private static func earlierFileChecksums(in sql: String) -> [String] {
        sql.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix(earlierChecksumMarker) else { return nil }
            let hex = line.dropFirst(earlierChecksumMarker.count).trimmingCharacters(in: .whitespaces)
            return hex.utf8.count == 64 && hex.allSatisfy(\.isHexDigit) ? hex.lowercased() : nil
        }
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
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
