import Foundation
import StoreSyncCore

extension Sequence<TransactionRecord> {
    /// The account a purchase's appAccountToken gives it: that of the newest of these records
    /// (``TransactionRecord/isNewer(_:than:)``) whose token names an account. A chain may carry
    /// two tokens (an upgrade bought while signed in to another account); deciding by the
    /// newest keeps the owner from depending on the order the records arrive in, and an older
    /// token, or a deleted account's (erased), does not decide.
    ///
    /// - Parameter accountsByToken: The accounts the records' tokens name.
    /// - Returns: The account, or `nil` when no record's token names one.
    func tokenAccount(among accountsByToken: [UUID: UUID]) -> UUID? {
        lazy.compactMap { record in record.appAccountToken.flatMap { accountsByToken[$0] }.map { (record, $0) } }
            .max { TransactionRecord.isNewer($1.0, than: $0.0) }?.1
    }
}
