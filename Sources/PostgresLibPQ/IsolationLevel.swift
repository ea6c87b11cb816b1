/// The isolation level a transaction runs at.
public enum IsolationLevel: Sendable, Hashable, CaseIterable {
    /// Each statement sees data committed before it began (PostgreSQL's default).
    case readCommitted
    /// The transaction sees one snapshot; a concurrent update of a row it updates fails with 40001.
    case repeatableRead
    /// As if transactions ran one after another; conflicts fail with 40001 and should be retried.
    case serializable

    var beginStatement: PostgresQuery {
        switch self {
        case .readCommitted: return "BEGIN ISOLATION LEVEL READ COMMITTED"
        case .repeatableRead: return "BEGIN ISOLATION LEVEL REPEATABLE READ"
        case .serializable: return "BEGIN ISOLATION LEVEL SERIALIZABLE"
        }
    }
}
