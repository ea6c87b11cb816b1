import AppStoreVerification
import Foundation
import Logging
import StoreSyncCore
import StoreSyncTesting

/// What a device does on its own: merge two large ledgers (a restore of a heavy account) and
/// verify App Store JWS with a chain already verified once.
struct ClientBench {
    let workspace: BenchWorkspace

    /// Milliseconds per merge of two 100,000-record ledgers (the merge the client runs on
    /// restore), over several runs.
    func mergeMilliseconds(recordsPerDevice: Int = 100_000, runs: Int = 15) -> [Double] {
        let workload = LedgerWorkload(recordsPerDevice: recordsPerDevice)
        var timings: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            let merged = workload.deviceA.merging(workload.deviceB)
            timings.append((ContinuousClock.now - start).milliseconds)
            precondition(merged.records.count >= recordsPerDevice, "the merge lost records")
        }
        return timings
    }

    /// Distinct transactions verified per second by one task, chain cached after the first.
    func verificationsPerSecond(count: Int = 5_000) async throws -> Double {
        let signer = workspace.signer
        let configuration = try VerifierConfiguration(
            bundleId: signer.bundleId, appAppleId: signer.appAppleId, environment: .sandbox,
            trustedRoots: [signer.pki.root])
        let verifier = SignedDataVerifier(configuration: configuration, logger: Logger(label: "storesync.bench"))
        let now = Date()
        let signed = (0..<count).map { index in
            let id = String(4_000_000_000_000 + index)
            return signer.signTransaction(
                TransactionRecord(
                    transactionId: id, originalTransactionId: id, productId: TestCatalog.lifetime,
                    productType: .nonConsumable, purchaseDate: now, originalPurchaseDate: now, environment: .sandbox,
                    signedDate: now, evidence: .jws))
        }
        _ = try await verifier.verifyTransaction(signed[0])
        let start = ContinuousClock.now
        for jws in signed { _ = try await verifier.verifyTransaction(jws) }
        return Double(count) / (ContinuousClock.now - start).seconds
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    var milliseconds: Double { seconds * 1000 }
}
