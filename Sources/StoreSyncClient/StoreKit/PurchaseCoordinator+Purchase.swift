import AppStorePayloads
import Foundation
import StoreSyncCore

extension PurchaseCoordinator {
    /// Buys a product for the signed-in account: StoreKit's purchase sheet with the account's
    /// `appAccountToken`, then the transaction is recorded and finished.
    ///
    /// - Parameter product: The product, as ``products()`` listed it.
    /// - Returns: ``PurchaseOutcome/purchased(_:entitlements:)`` once the purchase is kept
    ///   and finished; pending (Ask to Buy), cancelled, failed (left unfinished), or rejected
    ///   (finished, never to be kept for this account as it is).
    public func purchase(_ product: Source.Product) async -> PurchaseOutcome {
        await buy { token in try await source.purchase(product, appAccountToken: token) }
    }

    /// Buys what the customer chose on the App Store (an intent from ``purchaseIntents``) for
    /// the signed-in account: StoreKit's purchase sheet with the offer the customer redeemed
    /// and the account's `appAccountToken`, then the transaction is recorded and finished, as
    /// ``purchase(_:)`` does. Signed out, the purchase is stored until sign-in.
    ///
    /// - Parameter intent: The intent.
    /// - Returns: The outcome, as for ``purchase(_:)``.
    public func purchase(intent: Source.Intent) async -> PurchaseOutcome {
        await buy { token in try await source.purchase(intent, appAccountToken: token) }
    }

    /// Shows a purchase sheet with the signed-in account's token, then records and finishes
    /// what it ended with.
    ///
    /// - Parameter sheet: The sheet, given the token (`nil` when nobody is signed in).
    func buy(_ sheet: (UUID?) async throws -> PurchaseAttempt<Source.Delivery>) async -> PurchaseOutcome {
        let token = await client.session?.appAccountToken
        let attempt: PurchaseAttempt<Source.Delivery>
        do {
            attempt = try await sheet(token)
        } catch {
            return .failed(error)
        }
        return await complete(attempt)
    }

    /// Finishes a purchase the app started itself (SwiftUI's `PurchaseAction`,
    /// `purchase(confirmIn:options:)`): records and finishes its transaction like
    /// ``purchase(_:)`` does.
    ///
    /// - Parameter attempt: What the purchase sheet ended with.
    /// - Returns: The outcome; a transaction that could not be kept is
    ///   ``PurchaseOutcome/rejected(_:)`` when it was finished, ``PurchaseOutcome/failed(_:)``
    ///   when it was left for StoreKit's next delivery.
    public func complete(_ attempt: PurchaseAttempt<Source.Delivery>) async -> PurchaseOutcome {
        switch attempt {
        case .pending:
            return .pending
        case .cancelled:
            return .cancelled
        case .purchased(let delivery):
            let (result, finished) = await settle(delivery)
            switch result {
            case .success(let outcome):
                return .purchased(outcome, entitlements: await client.entitlements())
            case .failure(let error):
                return finished ? .rejected(error) : .failed(error)
            }
        }
    }

    /// Handles one transaction from ``TransactionSource/transactionUpdates()`` and reports it.
    func handleUpdate(_ delivery: Source.Delivery) async {
        let (result, finished) = await settle(delivery)
        let record = try? UnverifiedJWS.transaction(delivery.signedTransaction)
        updatesContinuation.yield(
            TransactionUpdate(
                transactionId: record?.transactionId, productId: record?.productId, result: result, isFinished: finished,
                entitlements: await client.entitlements()))
    }

    /// Records a transaction, then finishes it when the purchase can no longer be lost.
    ///
    /// - Returns: How recording went, and whether the transaction was finished.
    func settle(_ delivery: Source.Delivery) async -> (result: Result<RecordOutcome, StoreSyncClientError>, finished: Bool) {
        let result: Result<RecordOutcome, StoreSyncClientError>
        do {
            result = .success(try await client.record(signedTransaction: delivery.signedTransaction))
        } catch let error as StoreSyncClientError {
            result = .failure(error)
        } catch {
            result = .failure(.storage("\(error)"))
        }
        let finish = Self.mayFinish(after: result, verifiedByStoreKit: delivery.isVerifiedByStoreKit)
        if finish { await source.finish(delivery) }
        return (result, finish)
    }

    /// Whether a transaction may be finished after recording it: only once nothing can be
    /// lost by StoreKit forgetting it.
    ///
    /// - Every ``RecordOutcome``: acknowledged, durably queued, or stored until sign-in.
    /// - Owned by another account: kept in the ledger for a restore the user asks for.
    /// - Refused for its App Store environment (`environment-refused`: Sandbox on a Production
    ///   server that refuses it, an Xcode purchase on a real server): this server never takes
    ///   it, however often StoreKit delivers it; the refusal stays in
    ///   ``StoreSyncClient/rejectedUploads``.
    /// - Refused as unverifiable, or unreadable: finished only when StoreKit could not verify
    ///   it either (a forgery both agree on). When StoreKit vouches for it, the server or this
    ///   library is misconfigured, and StoreKit's next delivery gives it another chance.
    /// - Not stored (or any other failure): never; StoreKit delivers it again at launch.
    static func mayFinish(after result: Result<RecordOutcome, StoreSyncClientError>, verifiedByStoreKit: Bool) -> Bool {
        switch result {
        case .success:
            true
        case .failure(.ownedByOtherAccount):
            true
        case .failure(.invalidInput(let problem)) where problem.refusesEnvironment:
            true
        case .failure(.invalidInput), .failure(.malformedTransaction):
            !verifiedByStoreKit
        case .failure:
            false
        }
    }
}
