/// The StoreKit side of an app, so the app writes no StoreKit plumbing of its own: listens
/// to transactions from launch, records each before finishing it, buys with the account's
/// `appAccountToken`, imports what the user already owns at the first sign-in on a device,
/// and runs Restore Purchases.
///
/// ```swift
/// let purchases = PurchaseCoordinator(client: client)   // StoreKit 2 on Apple platforms
/// await purchases.start()                                // at launch
/// let products = try await purchases.products()          // ids from the server's catalog
/// switch await purchases.purchase(products[0]) { … }
/// ```
///
/// A transaction is finished only once the server acknowledged it or it is durably in the
/// outbox (or, signed out, kept until sign-in), so a purchase survives a crash or a lost
/// network between payment and upload: StoreKit delivers an unfinished transaction again at
/// the next launch, and the server takes it once.
public actor PurchaseCoordinator<Source: TransactionSource> {
    /// The client that records, restores and answers entitlement questions.
    public nonisolated let client: StoreSyncClient
    /// Where transactions come from: StoreKit, or a simulation in tests.
    public nonisolated let source: Source
    /// Transactions StoreKit delivered outside a purchase call, each after it was handled:
    /// watch it to update the UI when an Ask to Buy is approved or a refund lands. Iterate it
    /// from one place; the newest 100 wait when nobody does.
    public nonisolated let transactionUpdates: AsyncStream<TransactionUpdate>

    /// Purchases the customer started on the App Store, outside the app (a promoted in-app
    /// purchase, a win-back offer redeemed there), kept from ``start()`` until the app takes
    /// them: iterate it once the app can show a purchase (after onboarding, say) and buy each
    /// with ``purchase(intent:)``. App Review tries promoted purchases: an app that promotes
    /// any must complete them. Iterate it from one place; the newest 10 wait when nobody does.
    public nonisolated let purchaseIntents: AsyncStream<Source.Intent>

    let updatesContinuation: AsyncStream<TransactionUpdate>.Continuation
    let intentsContinuation: AsyncStream<Source.Intent>.Continuation
    var listener: Task<Void, Never>?
    /// Listens to ``TransactionSource/purchaseIntents()`` from ``start()`` on, so an intent
    /// that launched the app waits for it in ``purchaseIntents``.
    var intentListener: Task<Void, Never>?
    /// The import of current entitlements running now, so start and sign-in never run two, and
    /// whether another was asked for while it ran.
    var runningImport: Task<Void, Never>?
    var importRequestedDuringRun = false

    /// Creates a coordinator; nothing happens until ``start()``.
    ///
    /// - Parameters:
    ///   - client: The StoreSync client.
    ///   - source: The transactions' source.
    public init(client: StoreSyncClient, source: Source) {
        self.client = client
        self.source = source
        (transactionUpdates, updatesContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(100))
        (purchaseIntents, intentsContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(10))
    }

    /// Stops listening when the app lets go of the coordinator.
    deinit {
        listener?.cancel()
        intentListener?.cancel()
        updatesContinuation.finish()
        intentsContinuation.finish()
    }

    /// Starts everything an app needs at launch: listens to StoreKit's transactions (the
    /// unfinished ones arrive first) and to purchases started on the App Store, starts the
    /// client's self-flushing outbox, and imports StoreKit's current entitlements if this
    /// device has not yet for the signed-in account. Call it once, as early as possible;
    /// calling it again does nothing more.
    public func start() async {
        guard listener == nil else { return }
        let updates = source.transactionUpdates()
        listener = Task { [weak self] in
            for await delivery in updates {
                guard let self else { return }
                await self.handleUpdate(delivery)
            }
        }
        let intents = source.purchaseIntents()
        intentListener = Task { [intentsContinuation] in
            for await intent in intents {
                intentsContinuation.yield(intent)
            }
        }
        await client.start()
        await importEntitlementsIfNeeded()
    }

    /// Stops listening to StoreKit's transactions and purchase intents, and the client's
    /// automatic flushing. Intents already received stay in ``purchaseIntents``.
    public func stop() async {
        listener?.cancel()
        listener = nil
        intentListener?.cancel()
        intentListener = nil
        await client.stop()
    }

    /// Whether this user may make payments; hide or disable purchase buttons when not.
    public nonisolated var canMakePayments: Bool { source.canMakePayments }

    /// The products of the server's catalog, as StoreKit sells them: what the store UI lists.
    ///
    /// - Returns: The products StoreKit found for the catalog's ids (the catalog cached last
    ///   when the server cannot be reached).
    /// - Throws: The client's errors when there is no catalog at all, StoreKit's when it
    ///   cannot load the products.
    public func products() async throws -> [Source.Product] {
        let catalog = try await client.catalog()
        return try await source.products(for: catalog.productIds)
    }
}
