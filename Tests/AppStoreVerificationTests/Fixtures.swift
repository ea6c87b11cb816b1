import AppStoreVerification
import Foundation
import Logging
import StoreSyncCore
import StoreSyncTesting

/// Shared values for the verification tests: a fixed signing moment, a record of each
/// product type, and verifiers that trust a given test PKI.
enum Fixtures {
    static let bundleId = "com.example.storesync"
    static let appAppleId: Int64 = 1_234_567_890
    /// 2025-06-15: inside the default test PKI validity.
    static let signedAt = Date(timeIntervalSince1970: 1_750_000_000)
    static let logger = Logger(label: "storesync.tests.verification")

    static func verifier(
        trusting pki: TestPKI,
        environment: AppStoreEnvironment = .sandbox,
        appAppleId: Int64? = Fixtures.appAppleId,
        allowUnverified: Bool = false,
        acceptsSandbox: Bool = false,
        logger: Logger = Fixtures.logger
    ) throws -> SignedDataVerifier {
        let configuration = try VerifierConfiguration(
            bundleId: bundleId, appAppleId: appAppleId, environment: environment,
            trustedRoots: [pki.root], allowUnverified: allowUnverified, acceptsSandbox: acceptsSandbox)
        return SignedDataVerifier(configuration: configuration, logger: logger)
    }

    static func signer(_ pki: TestPKI) -> AppStoreTestSigner {
        AppStoreTestSigner(pki: pki, bundleId: bundleId, appAppleId: appAppleId)
    }

    /// A transaction of the given type as the App Store would report it.
    static func record(
        _ type: ProductType,
        environment: AppStoreEnvironment = .sandbox,
        signedDate: Date = Fixtures.signedAt
    ) -> TransactionRecord {
        let purchase = signedDate.addingTimeInterval(-3600)
        return TransactionRecord(
            transactionId: "2000000\(type.hashValue & 0xFFFF)",
            originalTransactionId: "1000000\(type.hashValue & 0xFFFF)",
            productId: "com.example.\(type.rawValue)",
            productType: type,
            purchaseDate: purchase,
            originalPurchaseDate: purchase.addingTimeInterval(-86_400),
            expiresDate: type == .autoRenewable ? purchase.addingTimeInterval(30 * 86_400) : nil,
            environment: environment,
            appAccountToken: UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"),
            quantity: type == .consumable ? 3 : 1,
            signedDate: signedDate,
            subscriptionGroupId: type == .autoRenewable ? "21345678" : nil,
            evidence: .jws)
    }

    static func renewalInfo(environment: AppStoreEnvironment = .sandbox, signedDate: Date = Fixtures.signedAt)
        -> RenewalInfo
    {
        RenewalInfo(
            originalTransactionId: "1000000042",
            autoRenewProductId: "com.example.pro.yearly",
            productId: "com.example.pro.monthly",
            autoRenewStatus: true,
            isInBillingRetryPeriod: true,
            gracePeriodExpiresDate: signedDate.addingTimeInterval(6 * 86_400),
            expirationIntent: 2,
            environment: environment,
            signedDate: signedDate)
    }

    /// A JSON payload with the given fields replaced, signed as-is.
    static func signedJSON(_ fields: [String: Any], with signer: AppStoreTestSigner) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: fields, options: .sortedKeys)
        return signer.sign(payload: data)
    }

    /// Apple's transaction JSON for a record, as a mutable dictionary.
    static func transactionJSON(_ record: TransactionRecord, signer: AppStoreTestSigner) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let data = try encoder.encode(signer.transactionPayload(for: record))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
