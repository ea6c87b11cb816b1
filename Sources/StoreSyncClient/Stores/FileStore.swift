public import Foundation

/// A ``KeyValueStore`` that keeps one file per key in a directory, replacing files atomically;
/// also a ``SessionStore`` (give it a directory of its own, excluded from backups, for the
/// session).
///
/// A write goes to a temporary file in the same directory, which is flushed to disk, renamed
/// over the key's file (atomic on POSIX file systems) and followed by a flush of the directory.
/// A crash at any moment therefore leaves each key with its old or its new value, never a
/// half-written or empty file. Temporary files a crash leaves behind are ignored, and removed
/// when a store is next created on the directory.
///
/// Keys are percent-encoded into file names; files are created readable by the owner only.
/// One directory belongs to one `FileStore` at a time (a second store created on it while the
/// first is writing would remove the first one's temporary file).
public final class FileStore: SessionStore {
    /// The directory holding one file per key; created on the first write.
    public let directory: URL
    /// Called between writing the temporary file and renaming it over the key's file: lets
    /// tests interrupt a write exactly where a crash would hurt most.
    let beforeRename: (@Sendable (_ temporaryFile: URL, _ destination: URL) throws -> Void)?

    /// Creates a store over a directory, removing temporary files an interrupted write left.
    ///
    /// - Parameter directory: The directory; it need not exist yet.
    public convenience init(directory: URL) {
        self.init(directory: directory, beforeRename: nil)
    }

    init(directory: URL, beforeRename: (@Sendable (URL, URL) throws -> Void)?) {
        self.directory = directory
        self.beforeRename = beforeRename
        removeLeftoverTemporaryFiles()
    }

    /// The value stored under a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The file's bytes, or `nil` when the key has no file.
    /// - Throws: ``FileStoreError`` when the key cannot be a file name or the file cannot be read.
    public func data(forKey key: String) throws -> Data? {
        try POSIXFile.readFile(fileURL(forKey: key))
    }

    /// Replaces the key's file atomically, or removes it when `data` is `nil`.
    ///
    /// - Parameters:
    ///   - data: The new contents, or `nil` to remove the key.
    ///   - key: The key.
    /// - Throws: ``FileStoreError`` when the write fails; the key then keeps its old value.
    public func set(_ data: Data?, forKey key: String) throws {
        let destination = try fileURL(forKey: key)
        guard let data else {
            // Removing an absent key changes no directory entry: nothing to make durable.
            if try POSIXFile.removeFile(destination) { try POSIXFile.synchronizeDirectory(directory) }
            return
        }
        try POSIXFile.createDirectory(directory)
        let temporary = directory.appendingPathComponent(FileStoreNames.temporaryPrefix + UUID().uuidString)
        try POSIXFile.writeDurably(data, to: temporary)
        // A hook that throws stands for a crash: the temporary file stays behind, as it would.
        try beforeRename?(temporary, destination)
        do {
            try POSIXFile.renameFile(temporary, to: destination)
        } catch {
            _ = try? POSIXFile.removeFile(temporary)
            throw error
        }
        try POSIXFile.synchronizeDirectory(directory)
    }

    /// The keys that start with a prefix; temporary files and foreign files are not keys.
    ///
    /// - Parameter prefix: The prefix.
    /// - Returns: The matching keys.
    /// - Throws: ``FileStoreError`` when the directory exists but cannot be listed.
    public func keys(withPrefix prefix: String) throws -> [String] {
        try POSIXFile.fileNames(in: directory)
            .compactMap(FileStoreNames.key(forFileName:))
            .filter { $0.hasPrefix(prefix) }
    }

    private func fileURL(forKey key: String) throws -> URL {
        directory.appendingPathComponent(try FileStoreNames.fileName(forKey: key), isDirectory: false)
    }

    private func removeLeftoverTemporaryFiles() {
        guard let names = try? POSIXFile.fileNames(in: directory) else { return }
        for name in names where name.hasPrefix(FileStoreNames.temporaryPrefix) {
            _ = try? POSIXFile.removeFile(directory.appendingPathComponent(name))
        }
    }
}
