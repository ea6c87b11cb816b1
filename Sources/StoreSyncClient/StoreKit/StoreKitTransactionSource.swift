#if canImport(StoreKit)
public import Foundation
public import StoreKit

/// The ``TransactionSource`` of Apple platforms: StoreKit 2, one call per requirement and no
/// decisions of its own (those live in ``PurchaseCoordinator``).
public struct StoreKitTransactionSource: TransactionSource {
    /// StoreKit's product.
    public typealias Product = StoreKit.Product
    /// StoreKit's transaction, with its JWS.
    public typealias Delivery = StoreKitTransaction
    /// StoreKit's purchase intent, with its offer.
    public typealias Intent = StoreKitPurchaseIntent

    /// Creates the source.
    public init() {}

    /// `Transaction.updates`, each result mapped to a ``StoreKitTransaction``.
    ///
    /// - Returns: The stream; it stops listening when its consumer goes away.
    public func transactionUpdates() -> AsyncStream<StoreKitTransaction> {
        AsyncStream { continuation in
            let listener = Task {
                for await result in StoreKit.Transaction.updates {
                    continuation.yield(StoreKitTransaction(result))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in listener.cancel() }
        }
    }

    /// `Transaction.currentEntitlements`, collected.
    ///
    /// - Returns: The transactions.
    public func currentEntitlements() async -> [StoreKitTransaction] {
        var transactions: [StoreKitTransaction] = []
        for await result in StoreKit.Transaction.currentEntitlements {
            transactions.append(StoreKitTransaction(result))
        }
        return transactions
    }

    /// `Transaction.finish()`.
    ///
    /// - Parameter delivery: The transaction.
    public func finish(_ delivery: StoreKitTransaction) async {
        await delivery.transaction.finish()
    }

    /// `AppStore.sync()`.
    ///
    /// - Throws: StoreKit's error, e.g. `StoreKitError.userCancelled`.
    public func sync() async throws {
        try await AppStore.sync()
    }

    /// `AppStore.canMakePayments`.
    public var canMakePayments: Bool { AppStore.canMakePayments }

    /// `Product.products(for:)`.
    ///
    /// - Parameter productIds: The ids.
    /// - Returns: The products the App Store knows.
    /// - Throws: StoreKit's error.
    public func products(for productIds: [String]) async throws -> [StoreKit.Product] {
        try await StoreKit.Product.products(for: productIds)
    }

    /// `Product.purchase(options: [.appAccountToken(_:)])`. visionOS has no purchase without
    /// a scene: there, buy through SwiftUI's `PurchaseAction` with the coordinator's
    /// `purchaseOptions()` and hand its result to the coordinator's `complete(_:)`.
    ///
    /// - Parameters:
    ///   - product: The product.
    ///   - appAccountToken: The account's token, or `nil`.
    /// - Returns: The purchase sheet's result.
    /// - Throws: StoreKit's error; on visionOS, ``SceneRequired``.
    public func purchase(_ product: StoreKit.Product, appAccountToken: UUID?) async throws
        -> PurchaseAttempt<StoreKitTransaction>
    {
        try await purchase(product, options: Self.purchaseOptions(appAccountToken))
    }

    /// `PurchaseIntent.intents` (iOS 16.4, macOS 14.4), each mapped to a
    /// ``StoreKitPurchaseIntent``; on tvOS, watchOS and visionOS, and on iOS before 16.4, a
    /// stream that ends at once: StoreKit has no purchase intents there.
    ///
    /// - Returns: The stream; it stops listening when its consumer goes away.
    public func purchaseIntents() -> AsyncStream<StoreKitPurchaseIntent> {
        AsyncStream { continuation in
            #if os(iOS) || os(macOS)
            if #available(iOS 16.4, macOS 14.4, *) {
                let listener = Task {
                    for await intent in PurchaseIntent.intents {
                        continuation.yield(StoreKitPurchaseIntent(intent))
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in listener.cancel() }
                return
            }
            #endif
            continuation.finish()
        }
    }

    /// `Product.purchase(options:)` for the intent's product, with the account's token and
    /// the redeemed win-back offer (`.winBackOffer(_:)`).
    ///
    /// - Parameters:
    ///   - intent: The intent.
    ///   - appAccountToken: The account's token, or `nil`.
    /// - Returns: The purchase sheet's result.
    /// - Throws: StoreKit's error; on visionOS, ``SceneRequired``.
    public func purchase(_ intent: StoreKitPurchaseIntent, appAccountToken: UUID?) async throws
        -> PurchaseAttempt<StoreKitTransaction>
    {
        var options = Self.purchaseOptions(appAccountToken)
        if let offer = intent.offer {
            if #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                options.insert(.winBackOffer(offer))
            }
        }
        return try await purchase(intent.product, options: options)
    }

    private func purchase(_ product: StoreKit.Product, options: Set<StoreKit.Product.PurchaseOption>) async throws
        -> PurchaseAttempt<StoreKitTransaction>
    {
        #if os(visionOS)
        throw SceneRequired()
        #else
        PurchaseAttempt(try await product.purchase(options: options))
        #endif
    }

    /// The error of ``purchase(_:appAccountToken:)`` on visionOS, where StoreKit buys only in
    /// a scene: use SwiftUI's `PurchaseAction` there.
    public struct SceneRequired: Error, Sendable, CustomStringConvertible {
        /// What to do instead.
        public var description: String {
            "visionOS buys only in a scene: use SwiftUI's PurchaseAction with purchaseOptions(), then complete(_:)"
        }
    }

    /// The purchase options carrying an account's token.
    ///
    /// - Parameter appAccountToken: The token, or `nil`.
    /// - Returns: `[.appAccountToken(token)]`, or no options.
    public static func purchaseOptions(_ appAccountToken: UUID?) -> Set<StoreKit.Product.PurchaseOption> {
        appAccountToken.map { [.appAccountToken($0)] } ?? []
    }
}
#endif
