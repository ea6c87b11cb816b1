#if canImport(StoreKit)
public import StoreKit

/// A purchase the customer started on the App Store, outside the app, as
/// ``StoreKitTransactionSource`` delivers it (`PurchaseIntent`): a promoted in-app purchase, or
/// a win-back offer redeemed there.
public struct StoreKitPurchaseIntent: PurchaseIntentDelivery {
    /// The product the customer chose.
    public let product: StoreKit.Product
    /// The win-back offer the customer redeemed (`PurchaseIntent.offer`, from iOS 18 and
    /// macOS 15), applied when the intent is bought: without it the customer would pay the
    /// full price.
    public let offer: StoreKit.Product.SubscriptionOffer?

    /// Creates an intent.
    ///
    /// - Parameters:
    ///   - product: The product.
    ///   - offer: The redeemed win-back offer, or `nil`.
    public init(product: StoreKit.Product, offer: StoreKit.Product.SubscriptionOffer? = nil) {
        self.product = product
        self.offer = offer
    }
}

#if os(iOS) || os(macOS)
@available(iOS 16.4, macOS 14.4, *)
extension StoreKitPurchaseIntent {
    /// Maps StoreKit's intent.
    ///
    /// - Parameter intent: What `PurchaseIntent.intents` emitted.
    public init(_ intent: PurchaseIntent) {
        var offer: StoreKit.Product.SubscriptionOffer?
        if #available(iOS 18.0, macOS 15.0, *) {
            offer = intent.offer
        }
        self.init(product: intent.product, offer: offer)
    }
}
#endif
#endif
