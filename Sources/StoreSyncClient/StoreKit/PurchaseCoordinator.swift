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

    let updatesContinuation: AsyncStream<TransactionUpdate>.Continuation
    var listener: Task<Void, Never>?
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
    }

    /// Stops listening when the app lets go of the coordinator.
    deinit {
        listener?.cancel()
        updatesContinuation.finish()
    }

    /// Starts everything an app needs at launch: listens to StoreKit's transactions (the
    /// unfinished ones arrive first), starts the client's self-flushing outbox, and imports
    /// StoreKit's current entitlements if this device has not yet for the signed-in account.
    /// Call it once, as early as possible; calling it again does nothing more.
    public func start() async {
        guard listener == nil else { return }
        let updates = source.transactionUpdates()
        listener = Task { [weak self] in
            for await delivery in updates {
                guard let self else { return }
                await self.handleUpdate(delivery)
            }
        }
        await client.start()
        await importEntitlementsIfNeeded()
    }

    /// Stops listening to StoreKit's transactions and the client's automatic flushing.
    public func stop() async {
        listener?.cancel()
        listener = nil
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
