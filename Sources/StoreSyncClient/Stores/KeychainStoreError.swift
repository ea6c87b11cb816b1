#if canImport(Security)
import Foundation
import Security

/// A Keychain call ``KeychainStore`` made failed.
public struct KeychainStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `OSStatus` the Keychain answered, e.g. `errSecInteractionNotAllowed` (-25308) before
    /// the first unlock, or `errSecMissingEntitlement` (-34018) in an unsigned process.
    public let status: Int32

    /// Creates an error for a status.
    ///
    /// - Parameter status: The Keychain's `OSStatus`.
    public init(status: Int32) { self.status = status }

    /// The Keychain's message for the status, and the status.
    public var description: String {
        let message = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "Keychain error"
        return "\(message) (OSStatus \(status))"
    }
}
#endif
