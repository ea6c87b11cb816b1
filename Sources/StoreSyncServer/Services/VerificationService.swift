import AppStorePayloads
import AppStoreVerification
import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import StoreSyncAPI
import StoreSyncCore

/// Apple's word on what devices send: StoreKit 2 JWS and legacy receipts, with every
/// failure turned into a verdict or a ``VerificationError`` a client can act on.
struct VerificationService: Sendable {
    let verifier: SignedDataVerifier
    /// The verifyReceipt settings; the product types come from the catalog at each call,
    /// because a receipt entry does not say what kind of product it is.
    let receipts: ReceiptVerifierConfiguration
    let httpClient: HTTPClient
    let catalog: CatalogService
    /// Which environments' data is taken, after verification.
    let environments: EnvironmentRule
    let memo = VerifiedJWSMemo()
    let logger: Logger
    /// `storesync_signed_transactions_verified_total{result}`: the full checks (signature and
    /// certificate chain) of signed transactions that neither the memo nor an account's rows
    /// knew, by result — the expensive part of uploads and restores, which a request cannot
    /// multiply by repeating a text.
    private let verifiedTexts = Counter(label: "storesync_signed_transactions_verified_total", dimensions: [("result", "verified")])
    private let refusedTexts = Counter(label: "storesync_signed_transactions_verified_total", dimensions: [("result", "refused")])

    /// Verifies one signed transaction.
    ///
    /// A text that does not verify but names an environment this server never takes is
    /// refused for that environment: what Xcode and StoreKit Testing sign (with a certificate
    /// of the developer's Mac, which no real server trusts) could not be taken here signed by
    /// Apple either, so its signature changes nothing but the kind of refusal, and the device
    /// may finish it. Every other failure is ``VerificationError/refused(field:detail:)``,
    /// which a fix of the server's or the app's settings may cure.
    ///
    /// - Throws: ``VerificationError/refused(field:detail:)`` or
    ///   ``VerificationError/environmentRefused(field:detail:)`` naming `field`.
    func transaction(_ jws: String, field: String) async throws -> TransactionRecord {
        do {
            return try await verified(jws)
        } catch {
            if let claimed = UnverifiedJWS.environment(ofTransaction: jws), let refusal = environments.refusal(of: claimed) {
                throw VerificationError.environmentRefused(field: field, detail: refusal)
            }
            throw VerificationError.refused(field: field, detail: "the signed transaction was refused: \(error)")
        }
    }

    /// What a verified record becomes: taken, or rejected when its environment is not taken
    /// (``EnvironmentRule``).
    ///
    /// - Parameters:
    ///   - record: A record Apple vouches for (a verified JWS or a verifyReceipt entry).
    ///   - entry: Its index among a restore's entries; `nil` for an upload.
    func admit(_ record: TransactionRecord, entry: Int?) -> SyncItem {
        if let refusal = environments.refusal(of: record.environment) { return .rejected(record, entry: entry, reason: refusal) }
        return .verified(record, entry: entry)
    }

    /// Verifies a base64 app receipt with Apple's verifyReceipt, following a 21007 to the
    /// sandbox and back on a 21008; the records carry the environment that answered, and
    /// ``admit(_:entry:)`` applies the same rule to them as to signed transactions.
    ///
    /// - Throws: ``VerificationError/receiptRejected(detail:)``, or
    ///   ``VerificationError/receiptVerifierUnavailable`` when Apple does not answer.
    func receipt(_ receiptData: String, now: Date) async throws -> [TransactionRecord] {
        var configuration = receipts
        configuration.productTypes = catalog.current.products.mapValues(\.type)
        let verifier = ReceiptVerifier(configuration: configuration, httpClient: httpClient, logger: logger)
        let result: Result<VerifiedReceipt, ReceiptVerificationError>
        do {
            result = .success(try await verifier.verify(receiptData: receiptData, now: now))
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let receipt):
            Self.countReceipt("verified")
            return receipt.records
        case .failure(.unreachable):
            Self.countReceipt("unreachable")
            throw VerificationError.receiptVerifierUnavailable
        case .failure(let error):
            Self.countReceipt("rejected")
            throw VerificationError.receiptRejected(detail: "\(error)")
        }
    }

    /// Counts receipts by what Apple's verifyReceipt made of them
    /// (`storesync_receipt_verifications_total{result}`): `unreachable` sets Apple's outages
    /// apart from the database's among the 503s.
    private static func countReceipt(_ result: String) {
        Counter(label: "storesync_receipt_verifications_total", dimensions: [("result", result)]).increment()
    }

    /// The record of a signed transaction: remembered when this exact text verified before.
    private func verified(_ jws: String) async throws -> TransactionRecord {
        if let known = memo.record(for: jws) { return known }
        return try await verifiedAndRemembered(jws)
    }

    /// Verifies a JWS the memo does not know and remembers the record.
    func verifiedAndRemembered(_ jws: String) async throws -> TransactionRecord {
        let record: TransactionRecord
        do {
            record = try await verifier.verifyTransaction(jws).record
            countChecks(verified: 1, refused: 0)
        } catch {
            countChecks(verified: 0, refused: 1)
            throw error
        }
        // A record accepted only under the development switch is not worth remembering.
        if record.evidence == .jws { memo.remember([record]) }
        return record
    }

    /// Counts full checks of signed transactions in ``verifiedTexts`` and ``refusedTexts``.
    func countChecks(verified: Int, refused: Int) {
        if verified > 0 { verifiedTexts.increment(by: verified) }
        if refused > 0 { refusedTexts.increment(by: refused) }
    }

    /// Verifies a version kept for an unclaimed purchase again; a version that no longer
    /// verifies (trusted roots changed) is dropped and logged.
    func unclaimed(_ kind: UnclaimedKind, _ payload: String) async -> UnclaimedVersion? {
        await verifier.keptVersion(kind, payload, logger: logger)
    }
}

extension SignedDataVerifier {
    /// Verifies a version kept for an unclaimed purchase again, as it is handed to the account
    /// that now takes the purchase; a version that no longer verifies (trusted roots changed)
    /// is dropped and logged.
    func keptVersion(_ kind: UnclaimedKind, _ payload: String, logger: Logger) async -> UnclaimedVersion? {
        do {
            switch kind {
            case .transaction: return .transaction(try await verifyTransaction(payload).record)
            case .renewalInfo: return .renewalInfo(try await verifyRenewalInfo(payload).renewalInfo)
            }
        } catch {
            logger.warning("an unclaimed signed version no longer verifies", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
