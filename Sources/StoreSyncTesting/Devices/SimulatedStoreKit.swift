public import Foundation
import NIOConcurrencyHelpers
public import StoreSyncClient

/// StoreKit 2 as a ``TransactionSource`` for tests and the demo: purchases are signed by a
/// test App Store PKI the server trusts, and the test decides what each purchase sheet ends with and when Apple
/// delivers a transaction later (an Ask to Buy approval, a refund, a renewal).
///
/// It keeps Apple's side of the device across relaunches: the transactions not yet finished
/// (delivered again to every new ``transactionUpdates()`` stream, as StoreKit does at launch)
/// and the user's current entitlements. Products are their ids.
public final class SimulatedStoreKit: TransactionSource {
    /// One transaction as this simulation delivers it.
    public struct Delivery: TransactionDelivery, Hashable {
        /// The compact JWS.
        public var signedTransaction: String
        /// What StoreKit's own check said.
        public var isVerifiedByStoreKit: Bool
        /// The transaction id, for the test's bookkeeping.
        public var transactionId: String
    }

    /// A purchase the customer started on the App Store: a promoted product, or a win-back
    /// offer redeemed there.
    public struct Intent: PurchaseIntentDelivery, Hashable {
        /// The product id.
        public var product: String
        /// The id of the offer the customer redeemed, or `nil`.
        public var offer: String?

        /// Creates an intent.
        ///
        /// - Parameters:
        ///   - product: The product id.
        ///   - offer: The redeemed offer's id, or `nil`.
        public init(product: String, offer: String? = nil) {
            self.product = product
            self.offer = offer
        }
    }

    /// What the next purchase sheet ends with.
    public enum Sheet: Sendable {
        /// The user pays.
        case pay
        /// A parent must approve (Ask to Buy): the purchase is pending until ``approveAskToBuy()``.
        case askToBuy
        /// The user dismisses the sheet.
        case cancel
        /// StoreKit fails with this error.
        case fail(any Error)
    }

    struct State {
        var sheet: Sheet = .pay
        var unfinished: [Delivery] = []
        var entitlements: [TestPurchase] = []
        var purchases: [String: TestPurchase] = [:]
        var awaitingApproval: [(productId: String, token: UUID?)] = []
        var listeners: [UUID: AsyncStream<Delivery>.Continuation] = [:]
        var waitingIntents: [Intent] = []
        var intentListeners: [UUID: AsyncStream<Intent>.Continuation] = [:]
        var offers: [String?] = []
        var finished: [String] = []
        var tokens: [UUID?] = []
        var syncs = 0
        var entitlementQueries = 0
        var syncError: (any Error)?
        var canMakePayments = true
        var losesFinishes = false
    }

    /// Signs what this store sells: a test App Store PKI the server trusts.
    let signer: AppStoreTestSigner
    /// The App Store's clock: when purchases and refunds happen.
    let now: @Sendable () -> Date
    let state = NIOLockedValueBox(State())

    /// Creates a store whose transactions the server trusts.
    ///
    /// - Parameter server: The server whose signer and clock are used.
    public convenience init(server: TestServer) {
        let clock = server.clock
        self.init(signer: server.signer, now: { clock.now() })
    }

    /// Creates a store signing with a test App Store PKI that a server trusts, such as one
    /// running as a separate process (the demo's).
    ///
    /// - Parameters:
    ///   - signer: The App Store stand-in's signer.
    ///   - now: The App Store's clock; the wall clock by default.
    public init(signer: AppStoreTestSigner, now: @escaping @Sendable () -> Date = Date.init) {
        self.signer = signer
        self.now = now
    }

    // MARK: TransactionSource

    /// A new stream, which first delivers every unfinished transaction (as at launch).
    ///
    /// - Returns: The stream.
    public func transactionUpdates() -> AsyncStream<Delivery> {
        let (stream, continuation) = AsyncStream.makeStream(of: Delivery.self)
        let id = UUID()
        state.withLockedValue { state in
            state.listeners[id] = continuation
            for delivery in state.unfinished { continuation.yield(delivery) }
        }
        continuation.onTermination = { [state] _ in
            _ = state.withLockedValue { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// The latest version of each purchase the user owns now.
    ///
    /// - Returns: The transactions.
    public func currentEntitlements() async -> [Delivery] {
        state.withLockedValue { state in
            state.entitlementQueries += 1
            return state.entitlements
        }.map { Self.delivery($0, verified: true) }
    }

    /// Marks a transaction finished, unless ``losesFinishes`` simulates a crash first.
    ///
    /// - Parameter delivery: The transaction.
    public func finish(_ delivery: Delivery) async {
        state.withLockedValue { state in
            guard !state.losesFinishes else { return }
            state.unfinished.removeAll { $0.signedTransaction == delivery.signedTransaction }
            state.finished.append(delivery.transactionId)
        }
    }

    /// Counts the sync, or fails with ``syncError``.
    ///
    /// - Throws: ``syncError`` when set.
    public func sync() async throws {
        let error = state.withLockedValue { state -> (any Error)? in
            state.syncs += 1
            return state.syncError
        }
        if let error { throw error }
    }

    /// Whether purchases are allowed; `true` unless the test says otherwise.
    public var canMakePayments: Bool {
        get { state.withLockedValue { $0.canMakePayments } }
        set { state.withLockedValue { $0.canMakePayments = newValue } }
    }

    /// Every id is a product.
    ///
    /// - Parameter productIds: The ids.
    /// - Returns: The same ids.
    public func products(for productIds: [String]) async throws -> [String] { productIds }

    /// Ends the purchase sheet as ``nextSheet`` says (paying by default), remembering the token.
    ///
    /// - Parameters:
    ///   - product: The product id.
    ///   - appAccountToken: The token the coordinator passed.
    /// - Returns: The sheet's result.
    /// - Throws: The error of a ``Sheet/fail(_:)`` sheet.
    public func purchase(_ product: String, appAccountToken: UUID?) async throws -> PurchaseAttempt<Delivery> {
        try await purchase(product, offer: nil, appAccountToken: appAccountToken)
    }

    /// A new stream of the intents the customer starts; those started while nobody listened
    /// (the one that launched the app) go to the first stream.
    ///
    /// - Returns: The stream.
    public func purchaseIntents() -> AsyncStream<Intent> {
        let (stream, continuation) = AsyncStream.makeStream(of: Intent.self)
        let id = UUID()
        state.withLockedValue { state in
            state.intentListeners[id] = continuation
            for intent in state.waitingIntents { continuation.yield(intent) }
            state.waitingIntents = []
        }
        continuation.onTermination = { [state] _ in
            _ = state.withLockedValue { $0.intentListeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Buys an intent's product with its offer, as ``purchase(_:appAccountToken:)`` buys a
    /// product.
    ///
    /// - Parameters:
    ///   - intent: The intent.
    ///   - appAccountToken: The token the coordinator passed.
    /// - Returns: The sheet's result.
    /// - Throws: The error of a ``Sheet/fail(_:)`` sheet.
    public func purchase(_ intent: Intent, appAccountToken: UUID?) async throws -> PurchaseAttempt<Delivery> {
        try await purchase(intent.product, offer: intent.offer, appAccountToken: appAccountToken)
    }

    private func purchase(_ product: String, offer: String?, appAccountToken: UUID?) async throws
        -> PurchaseAttempt<Delivery>
    {
        let sheet = state.withLockedValue { state -> Sheet in
            state.tokens.append(appAccountToken)
            state.offers.append(offer)
            defer { state.sheet = .pay }
            return state.sheet
        }
        switch sheet {
        case .pay:
            return .purchased(buy(product, token: appAccountToken))
        case .askToBuy:
            state.withLockedValue { $0.awaitingApproval.append((product, appAccountToken)) }
            return .pending
        case .cancel:
            return .cancelled
        case .fail(let error):
            throw error
        }
    }
}
