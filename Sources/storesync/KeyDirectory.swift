import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory of secret files (`storesync keygen --into`): each created once, whole, readable
/// by its owner only, never overwritten — two containers starting at once still make one key.
struct KeyDirectory {
    let path: String

    func url(of name: String) -> URL {
        URL(fileURLWithPath: path, isDirectory: true).appendingPathComponent(name)
    }

    /// Writes `contents` to `name` unless it exists: into a private temporary file first, then
    /// linked into place, which fails when another run got there first.
    ///
    /// - Returns: `true` when this call made the file, `false` when it existed.
    func create(_ name: String, contents: String) throws -> Bool {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let target = url(of: name).path
        if FileManager.default.fileExists(atPath: target) { return false }
        // Named by random bits, not the process id: every container's keygen is process 1, and a
        // run killed before the link must not leave a name the next run cannot create.
        let temporary = url(of: ".\(name).\(Self.randomToken().prefix(16)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw KeyDirectoryError(operation: "create \(temporary)", errno: errno) }
        defer { unlink(temporary) }
        let bytes = Array((contents + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced else { throw KeyDirectoryError(operation: "write \(temporary)", errno: errno) }
        guard link(temporary, target) == 0 else {
            if errno == EEXIST { return false }
            throw KeyDirectoryError(operation: "link \(target)", errno: errno)
        }
        // The new name is durable only once the directory is: a key a client pinned must not
        // vanish with a power loss after this run reported it made.
        let directory = open(path, O_RDONLY | O_DIRECTORY)
        guard directory >= 0 else { throw KeyDirectoryError(operation: "open \(path)", errno: errno) }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw KeyDirectoryError(operation: "sync \(path)", errno: errno) }
        return true
    }

    /// 256 random bits, base64url without padding: a bearer key.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// A file operation of ``KeyDirectory`` that failed.
struct KeyDirectoryError: Error, CustomStringConvertible {
    let operation: String
    let errno: Int32

    var description: String { "could not \(operation): \(String(cString: strerror(errno)))" }
}
