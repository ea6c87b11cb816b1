import Foundation
import StoreSyncCore

/// What an account holds at one version of it, read in one statement (``LookupQuery``): its
/// ledger and, when asked for, the texts of the verified versions it stores.
///
/// Every write to an account's rows bumps its version, so holdings read at the version the
/// account's lock later shows are still exactly what it holds.
struct AccountHoldings: Sendable {
    /// The account's version the ledger was read at.
    let version: Int64
    let ledger: Ledger
    /// The versions stored with a JWS that verified, by the SHA-256 of its text
    /// (``SignedTransactionDigest``); filled in only when read with digests.
    var verifiedTexts: [Data: TransactionRecord] = [:]

    /// The version the account stores with the text whose SHA-256 is `digest`, if it holds that
    /// text verified as the transaction the text's entry claims to be.
    func verifiedVersion(ofText digest: Data, claiming transactionId: String) -> TransactionRecord? {
        guard let record = verifiedTexts[digest], record.transactionId == transactionId else { return nil }
        return record
    }

    /// The holdings of two parts of one statement's rows for an account: the same version, the
    /// ledgers merged and the digests of both.
    func merging(_ other: AccountHoldings) -> AccountHoldings {
        AccountHoldings(
            version: version, ledger: ledger.merging(other.ledger),
            verifiedTexts: verifiedTexts.merging(other.verifiedTexts) { kept, _ in kept })
    }
}
