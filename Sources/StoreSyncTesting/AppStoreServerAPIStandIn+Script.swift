public import Foundation
public import StoreSyncCore

extension AppStoreServerAPIStandIn {
    /// Records transactions for a customer, in the order Apple recorded them. A new version
    /// of a known transaction (a refund, say) replaces it and appears after every `revision`
    /// handed out so far.
    ///
    /// - Parameters:
    ///   - records: The transactions; their evidence and JWS are ignored.
    ///   - customer: Names the App Store account; the history of any of its transaction ids
    ///     lists all of its transactions.
    public func addTransactions(_ records: [TransactionRecord], customer: String = "customer") async {
        await engine.state.add(records, customer: customer)
    }

    /// Records a subscription's renewal info; without one, statuses serve an auto-renewing one.
    ///
    /// - Parameters:
    ///   - renewalInfo: The renewal info.
    ///   - customer: The customer it belongs to.
    public func setRenewalInfo(_ renewalInfo: RenewalInfo, customer: String = "customer") async {
        await engine.state.set(renewalInfo, customer: customer)
    }

    /// Adds a notification to the notification history.
    ///
    /// - Parameter notification: The notification.
    public func addNotification(_ notification: AppStoreServerAPIStandInNotification) async {
        await engine.state.add(notification)
    }

    /// Makes an order id known to Look Up Order ID.
    ///
    /// - Parameters:
    ///   - orderId: The order id.
    ///   - transactionIds: Its transactions, recorded with ``addTransactions(_:customer:)``.
    public func addOrder(_ orderId: String, transactionIds: [String]) async {
        await engine.state.addOrder(orderId, transactionIds: transactionIds)
    }

    /// Spoils every served copy of a transaction.
    ///
    /// - Parameters:
    ///   - transactionId: The transaction.
    ///   - tampering: How.
    public func tamper(transaction transactionId: String, _ tampering: AppStoreServerAPIStandInTampering) async {
        await engine.state.tamper(.transaction(transactionId), tampering)
    }

    /// Spoils every served copy of a subscription's renewal info.
    ///
    /// - Parameters:
    ///   - originalTransactionId: The subscription.
    ///   - tampering: How.
    public func tamper(renewalInfo originalTransactionId: String, _ tampering: AppStoreServerAPIStandInTampering)
        async
    {
        await engine.state.tamper(.renewalInfo(originalTransactionId), tampering)
    }

    /// Spoils every served copy of a notification.
    ///
    /// - Parameters:
    ///   - uuid: The notification.
    ///   - tampering: How.
    public func tamper(notification uuid: UUID, _ tampering: AppStoreServerAPIStandInTampering) async {
        await engine.state.tamper(.notification(uuid.uuidString), tampering)
    }

    /// Queues a fault for the next request whose token is accepted.
    ///
    /// - Parameter fault: The fault.
    public func enqueue(_ fault: AppStoreServerAPIStandInFault) async {
        await engine.state.enqueue(fault)
    }

    /// Sets where test notifications are posted (`nil`: the app has no URL).
    ///
    /// - Parameter url: The notification URL, e.g. a test server's `/v1/notifications/appstore`.
    public func setNotificationURL(_ url: URL?) async {
        await engine.state.setNotificationURL(url)
    }

    /// Every request received so far, in order, with its token and why it was refused.
    public var requests: [AppStoreServerAPIStandInRequest] {
        get async { await engine.state.requests }
    }
}
