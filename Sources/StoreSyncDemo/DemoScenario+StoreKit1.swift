import AppStoreVerification
import Foundation
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting

/// A StoreKit 1 build of the app: it has no signed transactions, only the app receipt, which
/// the server verifies with Apple's verifyReceipt (stood in for) before it restores anything.
extension DemoScenario {
    /// The transaction Apple's stand-in finds in the demo's app receipt: a lifetime purchase
    /// made years ago, in the sandbox.
    static let receiptTransactionId = "1000000512345678"

    /// Apple's verifyReceipt, stood in for: production answers 21007 (a sandbox receipt, as
    /// App Review's and TestFlight's are), the sandbox vouches for one lifetime purchase.
    ///
    /// - Parameter request: What the server posted.
    /// - Returns: The stand-in's answer.
    @Sendable static func verifyReceipt(_ request: AppStoreReceiptStandInRequest) -> AppStoreReceiptStandInReply {
        guard request.endpoint == .sandbox else { return .status(21007) }
        let entry = ReceiptEntry(
            productId: TestCatalog.lifetime, transactionId: receiptTransactionId,
            originalTransactionId: receiptTransactionId, purchaseDateMs: "1560000000000")  // June 2019
        // The bundle id of the test PKI's apps, which the demo's server serves.
        return .receipt(bundleId: "com.example.storesync", environment: .sandbox, inApp: [entry])
    }

    /// Another user, on a Mac running the StoreKit 1 build, taps Restore Purchases: the app
    /// receipt goes to the server, which asks Apple, and the purchase joins the account.
    func restoreFromReceipt() async throws {
        Transcript.section("Device C (Mac), the app's StoreKit 1 build: Restore Purchases from the app receipt")
        let (mac, _) = makeDevice("device-c")
        let email = "grace-\(UUID().uuidString.prefix(6).lowercased())@example.com"
        let session = try await mac.signUp(email: email, password: password, deviceName: "Mac")
        Transcript.step("signUp(\(email))", "account \(Transcript.short(session.accountId))")
        // Any bytes do: they stand for the file at Bundle.main.appStoreReceiptURL, which only
        // Apple (here its stand-in) reads.
        let receipt = Data("MIIT app receipt of the StoreKit 1 build".utf8)
        let restored = try await mac.restore(receipt: receipt, userInitiated: true)
        let asked = await receipts.requests.map(\.endpoint.rawValue).joined(separator: " → ")
        Transcript.step("restore(receipt:)", "verifyReceipt asked (\(asked)); \(Transcript.verdicts(restored.verdicts))")
        Transcript.step("entitlements()", Transcript.entitlements(restored.entitlements))
        let again = try await mac.restore(receipt: receipt, userInitiated: true)
        // One verdict for the record the Mac cached from the first answer, one for the receipt's.
        let kinds = Set(again.verdicts.map(\.verdict.rawValue)).sorted().joined(separator: ", ")
        Transcript.step(
            "restore(receipt:) again", "\(again.verdicts.count) verdicts (cached record, receipt): \(kinds); nothing new, nothing stored")
    }
}
