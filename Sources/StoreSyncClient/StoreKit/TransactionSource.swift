public import Foundation

/// What ``PurchaseCoordinator`` needs from StoreKit: the signed transactions it delivers, and
/// the few things it can be asked to do.
///
/// `StoreKitTransactionSource` is the conformance apps use on Apple platforms, each
/// requirement one StoreKit 2 call; tests drive the coordinator with a simulated store.
/// Everything the coordinator decides — when to finish, which token to pass, when to import —
/// lives in the coordinator, never here.
public protocol TransactionSource: Sendable {
    /// A product as StoreKit sells it (`StoreKit.Product`).
    associatedtype Product: Sendable
    /// One transaction as StoreKit delivers it, able to be finished.
    associatedtype Delivery: TransactionDelivery
    /// A purchase the customer started outside the app, as StoreKit delivers it
    /// (`PurchaseIntent`).
    associatedtype Intent: PurchaseIntentDelivery where Intent.Product == Product

    /// The transactions StoreKit delivers outside a purchase call, as they arrive: the
    /// unfinished ones at launch, Ask to Buy approvals, renewals, refunds, purchases made on
    /// other devices (`Transaction.updates`).
    ///
    /// - Returns: A stream that lasts until its consumer goes away.
    func transactionUpdates() -> AsyncStream<Delivery>

    /// The latest transaction of every product the user is entitled to now:
    /// non-consumables, active subscriptions, non-renewing subscriptions
    /// (`Transaction.currentEntitlements`).
    ///
    /// - Returns: The transactions.
    func currentEntitlements() async -> [Delivery]

    /// Tells StoreKit the app is done with a transaction, so it is not delivered again
    /// (`Transaction.finish()`).
    ///
    /// - Parameter delivery: The transaction.
    func finish(_ delivery: Delivery) async

    /// Brings StoreKit's transactions up to date with the App Store, asking the user to
    /// authenticate (`AppStore.sync()`).
    ///
    /// - Throws: When the user cancels or the App Store cannot be reached.
    func sync() async throws

    /// Whether this user may make payments (`AppStore.canMakePayments`): `false` under
    /// parental or device-management restrictions.
    var canMakePayments: Bool { get }

    /// Loads products by id (`Product.products(for:)`); ids the App Store does not know are
    /// left out.
    ///
    /// - Parameter productIds: The product ids.
    /// - Returns: The products found.
    /// - Throws: When the App Store cannot be reached.
    func products(for productIds: [String]) async throws -> [Product]

    /// Buys a product, carrying the account's token so the purchase belongs to it
    /// (`Product.purchase(options: [.appAccountToken(_:)])`).
    ///
    /// - Parameters:
    ///   - product: The product.
    ///   - appAccountToken: The signed-in account's token, or `nil` when nobody is signed in.
    /// - Returns: What the purchase sheet ended with.
    /// - Throws: When StoreKit could not make the purchase.
    func purchase(_ product: Product, appAccountToken: UUID?) async throws -> PurchaseAttempt<Delivery>

    /// The purchases the customer starts on the App Store, outside the app, for the app to
    /// complete: a promoted in-app purchase, a win-back offer redeemed there
    /// (`PurchaseIntent.intents`). Where StoreKit has none (tvOS, watchOS, visionOS, iOS before
    /// 16.4) the stream ends at once.
    ///
    /// - Returns: A stream that lasts until its consumer goes away.
    func purchaseIntents() -> AsyncStream<Intent>

    /// Buys what a purchase intent names, with the offer the customer redeemed (a win-back
    /// offer), carrying the account's token.
    ///
    /// - Parameters:
    ///   - intent: The intent.
    ///   - appAccountToken: The signed-in account's token, or `nil` when nobody is signed in.
    /// - Returns: What the purchase sheet ended with.
    /// - Throws: When StoreKit could not make the purchase.
    func purchase(_ intent: Intent, appAccountToken: UUID?) async throws -> PurchaseAttempt<Delivery>
}

/// One transaction as StoreKit delivered it.
public protocol TransactionDelivery: Sendable {
    /// Its compact JWS (`VerificationResult.jwsRepresentation`), what the server verifies.
    var signedTransaction: String { get }
    /// Whether StoreKit's own check on the device passed (`.verified`).
    var isVerifiedByStoreKit: Bool { get }
}

/// A purchase the customer started outside the app (`PurchaseIntent`): the product, and what
/// the source needs to buy it as the customer chose it.
public protocol PurchaseIntentDelivery: Sendable {
    /// The product as the source sells it.
    associatedtype Product: Sendable
    /// The product the customer chose.
    var product: Product { get }
}
