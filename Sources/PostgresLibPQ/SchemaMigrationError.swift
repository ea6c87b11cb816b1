/// Why migrating the schema stopped.
public enum SchemaMigrationError: Error, Sendable, CustomStringConvertible {
    /// The migrations directory or a file in it cannot be read.
    case unreadable(path: String)
    /// A `.sql` file is not named `NNNN_name.sql`.
    case invalidFileName(String)
    /// A migration starts, ends or divides a transaction itself (its first such statement);
    /// the migrator runs each in one transaction with the row that records it.
    case controlsTransaction(name: String, statement: String)
    /// Two files share a version number.
    case duplicateVersion(Int, names: [String])
    /// An applied migration's file changed since it was applied.
    case checksumMismatch(name: String, applied: String, file: String)
    /// A migration failed and was rolled back; later ones did not run.
    case migrationFailed(name: String, underlying: PostgresError)
    /// The database holds migrations this build has no file for, applied by a newer build and
    /// not marked as keeping older builds working: this build must not run on it.
    case databaseNewerThanBinary(names: [String])

    /// One line naming the migration and the problem.
    public var description: String {
        switch self {
        case .unreadable(let path):
            return "cannot read migrations at \(path)"
        case .invalidFileName(let name):
            return "migration file \(name) is not named NNNN_name.sql"
        case .controlsTransaction(let name, let statement):
            return "migration \(name) contains \(statement): each migration runs in one transaction with its record, "
                + "so a script must not begin, commit or roll back one itself"
        case .duplicateVersion(let version, let names):
            return "migrations \(names.joined(separator: " and ")) share version \(version)"
        case .checksumMismatch(let name, _, _):
            return "migration \(name) was changed after it was applied; add a new migration instead of editing it"
        case .migrationFailed(let name, let underlying):
            // Operators read this, and DDL errors quote no user data, so the message helps.
            let hint = underlying.code == .lockNotAvailable
                ? " (other sessions held a lock it needs at every attempt: end long transactions, or migrate when the database is quiet)"
                : ""
            return "migration \(name) failed: \(underlying)" + (underlying.message.map { ": \($0)" } ?? "") + hint
        case .databaseNewerThanBinary(let names):
            return "the database was migrated by a newer build (\(names.joined(separator: ", "))) that older builds "
                + "cannot run on: deploy a build that includes it"
        }
    }
}
