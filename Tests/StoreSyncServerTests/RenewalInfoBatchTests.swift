import Foundation
import PostgresLibPQ
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncCore
import StoreSyncTesting
import Testing

/// Renewal infos are written and read for many accounts and purchases in one statement each.
@Suite struct RenewalInfoBatchTests {
    private func info(_ chain: String, signed: Date, intent: Int? = nil, grace: Date? = nil) -> RenewalInfo {
        RenewalInfo(
            originalTransactionId: chain, autoRenewProductId: intent == nil ? TestCatalog.monthly : nil,
            productId: TestCatalog.monthly, autoRenewStatus: intent == nil, isInBillingRetryPeriod: grace != nil,
            gracePeriodExpiresDate: grace, expirationIntent: intent, environment: .sandbox, signedDate: signed,
            signedRenewalInfo: intent == nil ? "renewal-\(chain)" : nil)
    }

    @Test func severalAccountsRenewalInfosAreStoredReplacedAndReadInOneStatementEach() async throws {
        try await withServer { server in
            let x = try await server.signUp().accountId
            let y = try await server.signUp().accountId
            let signed = Date(timeIntervalSince1970: 1_764_064_800.123)
            let first = [
                (x, info("1001", signed: signed)),
                (x, info("1002", signed: signed, intent: 1, grace: signed.addingTimeInterval(86_400))),
                (y, info("1001", signed: signed)),
            ]
            let repository = RenewalInfoRepository()
            try await server.database.withConnection { try await repository.store(first, on: $0) }
            // A later one replaces the stored one of its account and purchase only.
            let later = info("1001", signed: signed.addingTimeInterval(60), intent: 2)
            try await server.database.withConnection { try await repository.store([(y, later)], on: $0) }

            let read = try await server.database.withConnection {
                try await repository.renewalInfos(of: [("1001", x), ("1002", x), ("1001", y), ("1002", y)], on: $0)
            }
            var expectedX = first[0].1
            expectedX.signedRenewalInfo = nil  // the JWS is stored, not read back
            var expectedIntent = first[1].1
            expectedIntent.signedRenewalInfo = nil
            var expectedY = later
            expectedY.signedRenewalInfo = nil
            #expect(read == [x: ["1001": expectedX, "1002": expectedIntent], y: ["1001": expectedY]])
        }
    }
}
