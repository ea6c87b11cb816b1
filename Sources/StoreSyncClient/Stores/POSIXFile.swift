import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few system calls ``FileStore`` needs, with `errno` turned into ``FileStoreError``.
///
/// Foundation's `Data.write(to:options: .atomic)` does not flush the file or the directory
/// before and after its rename, so a power loss can still leave an empty file: hence these.
enum POSIXFile {
    /// The whole file, or `nil` when it does not exist.
    static func readFile(_ url: URL) throws(FileStoreError) -> Data? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .io(operation: "open", path: url.path, errno: errno)
        }
        defer { close(descriptor) }
        var contents = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return contents }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(operation: "read", path: url.path, errno: errno)
            }
            contents.append(contentsOf: buffer[0..<count])
        }
    }

    /// Writes a new file (it must not exist) and flushes it to stable storage.
    static func writeDurably(_ data: Data, to url: URL) throws(FileStoreError) {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(operation: "create", path: url.path, errno: errno) }
        var failure: FileStoreError?
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = .io(operation: "write", path: url.path, errno: errno)
                    return
                }
                offset += written
            }
        }
        if failure == nil, !synchronize(descriptor) { failure = .io(operation: "fsync", path: url.path, errno: errno) }
        close(descriptor)
        if let failure {
            unlink(url.path)
            throw failure
        }
    }

    static func renameFile(_ source: URL, to destination: URL) throws(FileStoreError) {
        guard rename(source.path, destination.path) == 0 else {
            throw .io(operation: "rename", path: destination.path, errno: errno)
        }
    }

    /// Removes a file; one that does not exist is already removed.
    ///
    /// - Returns: Whether a file was there to remove.
    @discardableResult
    static func removeFile(_ url: URL) throws(FileStoreError) -> Bool {
        if unlink(url.path) == 0 { return true }
        guard errno == ENOENT else { throw .io(operation: "unlink", path: url.path, errno: errno) }
        return false
    }

    /// Makes a completed rename or unlink durable: the directory entry lives in the directory.
    static func synchronizeDirectory(_ url: URL) throws(FileStoreError) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw .io(operation: "open", path: url.path, errno: errno)
        }
        defer { close(descriptor) }
        guard synchronize(descriptor) else { throw .io(operation: "fsync", path: url.path, errno: errno) }
    }

    /// Creates the directory (owner-only) and its parents when missing.
    static func createDirectory(_ url: URL) throws(FileStoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(operation: "mkdir", path: url.path, errno: EIO)
        }
    }

    /// The names in a directory; none when it does not exist yet.
    static func fileNames(in url: URL) throws(FileStoreError) -> [String] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw .io(operation: "list", path: url.path, errno: EIO)
        }
    }

    static func message(for code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// `fsync`; on Apple platforms `F_FULLFSYNC`, because there `fsync` stops at the drive's cache.
    private static func synchronize(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        while fsync(descriptor) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }
}
