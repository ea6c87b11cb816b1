import AppStoreVerification
import Benchmark
import Foundation
import Logging
import StoreSyncCore
import StoreSyncTesting

/// Verifications per second of App Store signed data, release mode, one task at a time (so
/// the wall-clock throughput is per core): with a fresh chain (every certificate checked up
/// to the root) and with a cached chain (one ES256 signature check plus decoding).
/// Target with a cached chain: at least 5,000 per second per core.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .cpuTotal, .mallocCountTotal],
        warmupIterations: 50,
        maxDuration: .seconds(5),
        maxIterations: 100_000)

    let fixture: VerificationFixture
    do {
        fixture = try VerificationFixture()
    } catch {
        fatalError("the benchmark cannot build its test PKI: \(error)")
    }

    Benchmark("Verify transaction, fresh chain") { benchmark async throws in
        for _ in benchmark.scaledIterations {
            let verifier = fixture.makeVerifier()
            blackHole(try await verifier.verifyTransaction(fixture.transaction))
        }
    }

    Benchmark("Verify transaction, cached chain") { benchmark async throws in
        for _ in benchmark.scaledIterations {
            blackHole(try await fixture.warmVerifier.verifyTransaction(fixture.transaction))
        }
    }

    Benchmark("Verify renewal info, cached chain") { benchmark async throws in
        for _ in benchmark.scaledIterations {
            blackHole(try await fixture.warmVerifier.verifyRenewalInfo(fixture.renewalInfo))
        }
    }

    Benchmark("Verify notification with nested transaction and renewal info, cached chain") { benchmark async throws in
        for _ in benchmark.scaledIterations {
            blackHole(try await fixture.warmVerifier.verifyNotification(fixture.notification))
        }
    }

    Benchmark("Reject forged signature, cached chain") { benchmark async throws in
        for _ in benchmark.scaledIterations {
            do {
                _ = try await fixture.warmVerifier.verifyTransaction(fixture.forgedTransaction)
                benchmark.error("a forged transaction verified")
            } catch {
                blackHole(error)
            }
        }
    }
}

/// Signed data and verifiers shared by the benchmarks, built once.
struct VerificationFixture: Sendable {
    let configuration: VerifierConfiguration
    let warmVerifier: SignedDataVerifier
    let transaction: String
    let forgedTransaction: String
    let renewalInfo: String
    let notification: String

    init() throws {
        let pki = try TestPKI.make()
        let signer = AppStoreTestSigner(pki: pki)
        let signedAt = Date(timeIntervalSince1970: 1_750_000_000)
        let record = TransactionRecord(
            transactionId: "2000000123456789", originalTransactionId: "2000000100000000",
            productId: "com.example.storesync.pro.monthly", productType: .autoRenewable,
            purchaseDate: signedAt - 3600, originalPurchaseDate: signedAt - 86_400 * 90,
            expiresDate: signedAt + 86_400 * 30, environment: .sandbox,
            appAccountToken: UUID(), signedDate: signedAt, subscriptionGroupId: "21345678", evidence: .jws)
        let renewal = RenewalInfo(
            originalTransactionId: record.originalTransactionId, autoRenewProductId: record.productId,
            productId: record.productId, autoRenewStatus: true, environment: .sandbox, signedDate: signedAt)
        configuration = try VerifierConfiguration(
            bundleId: signer.bundleId, appAppleId: signer.appAppleId, environment: .sandbox,
            trustedRoots: [pki.root])
        transaction = signer.signTransaction(record)
        renewalInfo = signer.signRenewalInfo(renewal)
        notification = signer.signNotification(
            type: .didRenew, signedDate: signedAt, environment: .sandbox, transaction: record, renewalInfo: renewal)
        var forged = record
        forged.quantity = 99
        let forgedPayload = signer.signTransaction(forged).split(separator: ".")[1]
        let genuine = transaction.split(separator: ".")
        forgedTransaction = "\(genuine[0]).\(forgedPayload).\(genuine[2])"
        warmVerifier = SignedDataVerifier(configuration: configuration, logger: Logger(label: "benchmark"))
    }

    func makeVerifier() -> SignedDataVerifier {
        SignedDataVerifier(configuration: configuration, logger: Logger(label: "benchmark"))
    }
}
