/// Why a ``FileStore`` could not read or write a key.
public enum FileStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key is empty or its encoded file name exceeds 255 bytes.
    case invalidKey(String)
    /// A system call failed.
    case io(operation: String, path: String, errno: Int32)

    /// What failed, for logs.
    public var description: String {
        switch self {
        case .invalidKey(let key):
            "the key '\(key.prefix(80))' cannot be a file name (empty, or longer than 255 bytes once encoded)"
        case .io(let operation, let path, let code):
            "\(operation) \(path) failed: \(POSIXFile.message(for: code)) (errno \(code))"
        }
    }
}
