public import Foundation

/// Something in the cache that could not be trusted and was discarded: a snapshot whose
/// signature failed (edited on disk, or signed with another key), or an item that no longer
/// decodes.
public struct CacheIntegrityIssue: Sendable, Hashable, CustomStringConvertible {
    /// The store key of the discarded item.
    public var key: String
    /// What was wrong with it.
    public var problem: String
    /// When it was noticed.
    public var detectedAt: Date

    /// Creates an issue.
    ///
    /// - Parameters:
    ///   - key: The store key.
    ///   - problem: What was wrong.
    ///   - detectedAt: When it was noticed.
    public init(key: String, problem: String, detectedAt: Date) {
        self.key = key
        self.problem = problem
        self.detectedAt = detectedAt
    }

    /// `key: problem`.
    public var description: String { "\(key): \(problem)" }
}
