/// The embedded PostgreSQL did not start: missing binaries, a directory it cannot use, a full disk.
public struct EmbeddedDatabaseError: Error, Sendable, CustomStringConvertible {
    /// What the launcher reported.
    public let reason: String

    /// One line for the operator, e.g. `the embedded PostgreSQL did not start: …`.
    public var description: String { "the embedded PostgreSQL did not start: \(reason)" }
}
