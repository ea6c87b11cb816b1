import AppStoreVerification
import Foundation
import StoreSyncCore

/// What the App Store Server API stand-in knows: customers' transactions and renewal infos,
/// notification history, orders, scripted faults and tamperings, and the requests received.
actor AppStoreServerAPIStandInState {
    /// A transaction version, numbered in the order it was recorded: what `revision` counts.
    struct Entry {
        var sequence: Int
        var record: TransactionRecord
    }

    /// One App Store account's purchases in the app.
    struct Customer {
        var entries: [Entry] = []
        var renewalInfos: [String: RenewalInfo] = [:]

        func holds(_ transactionId: String) -> Bool {
            entries.contains { $0.record.transactionId == transactionId || $0.record.originalTransactionId == transactionId }
        }
    }

    private(set) var customers: [String: Customer] = [:]
    private var nextSequence = 1
    private(set) var notifications: [AppStoreServerAPIStandInNotification] = []
    private(set) var orders: [String: [String]] = [:]
    private(set) var tamperings: [AppStoreServerAPIStandInItem: AppStoreServerAPIStandInTampering] = [:]
    private var faults: [AppStoreServerAPIStandInFault] = []
    private(set) var requests: [AppStoreServerAPIStandInRequest] = []
    private(set) var notificationURL: URL?
    /// Test notification tokens and the UUID of the notification each sent.
    private(set) var testNotifications: [String: UUID] = [:]

    init(notificationURL: URL?) {
        self.notificationURL = notificationURL
    }

    /// Records transaction versions for a customer; a new version of a known transaction
    /// replaces it and moves past every revision handed out so far.
    func add(_ records: [TransactionRecord], customer name: String) {
        var customer = customers[name] ?? Customer()
        for record in records {
            customer.entries.removeAll { $0.record.transactionId == record.transactionId }
            customer.entries.append(Entry(sequence: nextSequence, record: record))
            nextSequence += 1
        }
        customers[name] = customer
    }

    func set(_ renewalInfo: RenewalInfo, customer name: String) {
        customers[name, default: Customer()].renewalInfos[renewalInfo.originalTransactionId] = renewalInfo
    }

    func customer(holding transactionId: String) -> Customer? {
        customers.values.first { $0.holds(transactionId) }
    }

    /// The current version of each transaction id, in the order asked.
    func transactions(_ ids: [String]) -> [TransactionRecord] {
        ids.compactMap { id in
            customers.values.lazy.flatMap(\.entries).first { $0.record.transactionId == id }?.record
        }
    }

    func add(_ notification: AppStoreServerAPIStandInNotification) { notifications.append(notification) }

    func addOrder(_ orderId: String, transactionIds: [String]) { orders[orderId] = transactionIds }

    func tamper(_ item: AppStoreServerAPIStandInItem, _ tampering: AppStoreServerAPIStandInTampering) {
        tamperings[item] = tampering
    }

    func enqueue(_ fault: AppStoreServerAPIStandInFault) { faults.append(fault) }

    func nextFault() -> AppStoreServerAPIStandInFault? { faults.isEmpty ? nil : faults.removeFirst() }

    func log(_ request: AppStoreServerAPIStandInRequest) { requests.append(request) }

    func setNotificationURL(_ url: URL?) { notificationURL = url }

    func addTestNotification(_ notification: AppStoreServerAPIStandInNotification, token: String) {
        notifications.append(notification)
        testNotifications[token] = notification.uuid
    }

    func recordAttempt(_ attempt: AppStoreSendAttempt, for uuid: UUID) {
        guard let index = notifications.firstIndex(where: { $0.uuid == uuid }) else { return }
        notifications[index].sendAttempts.append(attempt)
    }
}
