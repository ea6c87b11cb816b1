#if canImport(StoreKit)
public import StoreKit

/// A StoreKit 2 transaction as ``StoreKitTransactionSource`` delivers it: its JWS, StoreKit's
/// verdict on it, and the transaction to finish.
public struct StoreKitTransaction: TransactionDelivery {
    /// `VerificationResult.jwsRepresentation`.
    public let signedTransaction: String
    /// Whether the result was `.verified`.
    public let isVerifiedByStoreKit: Bool
    /// The transaction, verified or not.
    public let transaction: StoreKit.Transaction

    /// Maps a verification result.
    ///
    /// - Parameter result: StoreKit's result.
    public init(_ result: VerificationResult<StoreKit.Transaction>) {
        signedTransaction = result.jwsRepresentation
        switch result {
        case .verified(let transaction):
            self.transaction = transaction
            isVerifiedByStoreKit = true
        case .unverified(let transaction, _):
            self.transaction = transaction
            isVerifiedByStoreKit = false
        }
    }
}

extension PurchaseAttempt where Delivery == StoreKitTransaction {
    /// Maps StoreKit's purchase result.
    ///
    /// - Parameter result: What `Product.purchase` or SwiftUI's `PurchaseAction` returned.
    public init(_ result: StoreKit.Product.PurchaseResult) {
        switch result {
        case .success(let verification):
            self = .purchased(StoreKitTransaction(verification))
        case .userCancelled:
            self = .cancelled
        case .pending:
            self = .pending
        @unknown default:
            // A future kind of result: any transaction it leads to arrives through
            // `Transaction.updates`, like a pending one.
            self = .pending
        }
    }
}

extension PurchaseCoordinator where Source == StoreKitTransactionSource {
    /// Creates a coordinator over StoreKit 2.
    ///
    /// - Parameter client: The StoreSync client.
    public init(client: StoreSyncClient) {
        self.init(client: client, source: StoreKitTransactionSource())
    }

    /// The options to pass when the app starts a purchase itself (SwiftUI's `PurchaseAction`,
    /// `purchase(confirmIn:options:)`): the signed-in account's `appAccountToken`.
    ///
    /// - Returns: The options.
    public func purchaseOptions() async -> Set<StoreKit.Product.PurchaseOption> {
        StoreKitTransactionSource.purchaseOptions(await client.session?.appAccountToken)
    }

    /// Records and finishes the transaction of a purchase the app started itself.
    ///
    /// - Parameter result: What StoreKit returned.
    /// - Returns: The outcome.
    public func complete(_ result: StoreKit.Product.PurchaseResult) async -> PurchaseOutcome {
        await complete(PurchaseAttempt(result))
    }
}
#endif
