public import Foundation
import NIOConcurrencyHelpers
import StoreSyncClient
import StoreSyncCore

/// What the test makes Apple do, and what it reads back.
extension SimulatedStoreKit {
    /// What the next purchase sheet ends with; back to paying after each purchase.
    public var nextSheet: Sheet {
        get { state.withLockedValue { $0.sheet } }
        set { state.withLockedValue { $0.sheet = newValue } }
    }

    /// The error ``sync()`` throws (e.g. the user cancelled the Apple ID prompt), or `nil`.
    public var syncError: (any Error)? {
        get { state.withLockedValue { $0.syncError } }
        set { state.withLockedValue { $0.syncError = newValue } }
    }

    /// While `true`, ``finish(_:)`` is lost, as when the app is killed between recording a
    /// transaction and finishing it.
    public var losesFinishes: Bool {
        get { state.withLockedValue { $0.losesFinishes } }
        set { state.withLockedValue { $0.losesFinishes = newValue } }
    }

    /// Transaction ids finished so far, in order (a re-delivery finished again appears twice).
    public var finishedTransactionIds: [String] { state.withLockedValue { $0.finished } }

    /// Transaction ids StoreKit still holds unfinished.
    public var unfinishedTransactionIds: [String] { state.withLockedValue { $0.unfinished.map(\.transactionId) } }

    /// The `appAccountToken` of every purchase asked for, in order.
    public var appAccountTokens: [UUID?] { state.withLockedValue { $0.tokens } }

    /// The offer of every purchase asked for, in order (`nil` for a purchase without one).
    public var redeemedOffers: [String?] { state.withLockedValue { $0.offers } }

    /// How many times ``sync()`` ran.
    public var syncCount: Int { state.withLockedValue { $0.syncs } }

    /// How many times ``currentEntitlements()`` was asked.
    public var currentEntitlementsCount: Int { state.withLockedValue { $0.entitlementQueries } }

    /// The purchase made under a transaction id, as signed.
    ///
    /// - Parameter transactionId: The id.
    /// - Returns: The purchase, if this store made or received it.
    public func purchase(withId transactionId: String) -> TestPurchase? {
        state.withLockedValue { $0.purchases[transactionId] }
    }

    /// A parent approves the oldest purchase waiting for approval: its transaction is
    /// delivered through the updates streams.
    ///
    /// - Returns: The approved purchase, or `nil` when none waits.
    @discardableResult
    public func approveAskToBuy() -> TestPurchase? {
        guard let waiting = state.withLockedValue({ $0.awaitingApproval.isEmpty ? nil : $0.awaitingApproval.removeFirst() })
        else { return nil }
        let delivery = buy(waiting.productId, token: waiting.token)
        deliver(delivery)
        return purchase(withId: delivery.transactionId)
    }

    /// Apple refunds a purchase: its revoked version is delivered through the updates streams
    /// and the product leaves the current entitlements.
    ///
    /// - Parameter transactionId: The refunded transaction.
    /// - Returns: The revoked version, or `nil` for an unknown id.
    @discardableResult
    public func refund(_ transactionId: String) -> TestPurchase? {
        guard let original = purchase(withId: transactionId) else { return nil }
        let revoked = original.refunded(at: now(), signedBy: signer)
        state.withLockedValue { state in
            state.purchases[transactionId] = revoked
            state.entitlements.removeAll { $0.record.transactionId == transactionId }
        }
        deliver(Self.delivery(revoked, verified: true))
        return revoked
    }

    /// Delivers a transaction through the updates streams, e.g. a purchase made on another
    /// device with this Apple ID, or a forgery StoreKit could not verify.
    ///
    /// - Parameters:
    ///   - purchase: The transaction.
    ///   - verifiedByStoreKit: What StoreKit's own check says.
    public func deliver(_ purchase: TestPurchase, verifiedByStoreKit: Bool = true) {
        state.withLockedValue { $0.purchases[purchase.record.transactionId] = purchase }
        deliver(Self.delivery(purchase, verified: verifiedByStoreKit))
    }

    /// The customer starts a purchase on the App Store (taps a promoted product, redeems a
    /// win-back offer): the intent goes to every intents stream, or waits for the first one.
    ///
    /// - Parameter intent: The intent.
    public func startOnAppStore(_ intent: Intent) {
        let listeners = state.withLockedValue { state in
            if state.intentListeners.isEmpty { state.waitingIntents.append(intent) }
            return Array(state.intentListeners.values)
        }
        for listener in listeners { listener.yield(intent) }
    }

    /// Adds a purchase this Apple ID made earlier to the current entitlements, finished.
    ///
    /// - Parameter purchase: The purchase.
    public func own(_ purchase: TestPurchase) {
        state.withLockedValue { state in
            state.purchases[purchase.record.transactionId] = purchase
            state.entitlements.append(purchase)
        }
    }

    // MARK: Internals

    /// Signs a purchase made now and keeps it unfinished (and owned, unless consumable).
    func buy(_ productId: String, token: UUID?) -> Delivery {
        let purchase = TestPurchase.buy(productId, signedBy: signer, at: now(), token: token)
        let delivery = Self.delivery(purchase, verified: true)
        state.withLockedValue { state in
            state.purchases[purchase.record.transactionId] = purchase
            state.unfinished.append(delivery)
            if purchase.record.productType != .consumable { state.entitlements.append(purchase) }
        }
        return delivery
    }

    /// Hands a transaction to every updates stream, unfinished until the app finishes it.
    private func deliver(_ delivery: Delivery) {
        let listeners = state.withLockedValue { state in
            if !state.unfinished.contains(delivery) { state.unfinished.append(delivery) }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(delivery) }
    }

    static func delivery(_ purchase: TestPurchase, verified: Bool) -> Delivery {
        Delivery(signedTransaction: purchase.jws, isVerifiedByStoreKit: verified, transactionId: purchase.record.transactionId)
    }
}

extension SimulatedStoreKit.Delivery {
    /// A transaction as a purchase sheet hands it over, for a test that completes a purchase
    /// itself (`PurchaseCoordinator.complete(_:)`), such as a forgery or another account's.
    ///
    /// - Parameters:
    ///   - purchase: The transaction.
    ///   - verifiedByStoreKit: What StoreKit's own check says.
    public init(_ purchase: TestPurchase, verifiedByStoreKit: Bool = true) {
        self = SimulatedStoreKit.delivery(purchase, verified: verifiedByStoreKit)
    }
}
