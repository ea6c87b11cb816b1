import AppStoreVerification
import Testing

@Suite struct ReceiptStatusTests {
    @Test(arguments: [0, 21000, 21001, 21002, 21003, 21004, 21005, 21006, 21007, 21008, 21009, 21010, 21100, 21150, 21199])
    func everyDocumentedStatusHasItsOwnDescription(code: Int) {
        let status = ReceiptStatus(rawValue: code)
        #expect(status.description.hasPrefix("\(code):"))
        #expect(!status.description.contains("unknown"))
    }

    @Test func onlyTemporaryFailuresAreRetryable() {
        let retryable = [21002, 21005, 21009, 21100, 21150, 21199]
        for code in [0, 21000, 21001, 21003, 21004, 21006, 21007, 21008, 21010, 21099, 21200] + retryable {
            #expect(ReceiptStatus(rawValue: code).isRetryable == retryable.contains(code), "status \(code)")
        }
    }

    @Test func validAndExpiredSubscriptionCarryTheReceipt() {
        #expect(ReceiptStatus.valid.isValid)
        #expect(ReceiptStatus.subscriptionExpired.isValid)
        #expect(!ReceiptStatus.sandboxReceipt.isValid)
    }

    @Test func unknownStatusIsKept() {
        let status = ReceiptStatus(rawValue: 30_000)
        #expect(status.rawValue == 30_000)
        #expect(status.description.contains("unknown"))
        #expect(!status.isRetryable)
    }
}
