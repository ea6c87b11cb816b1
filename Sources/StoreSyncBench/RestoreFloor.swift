import AppStoreVerification
import Foundation
import Logging
import PostgresLibPQ
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting

/// What a restore of new entries cannot go below on this machine, measured in the bench process
/// while the server idles: verifying the restore's JWS on every core with the server's own
/// verifier, PostgreSQL storing the same rows with the server's own statements
/// (``StoreSyncServer/FirstClaimWrites``), and both at once, side by side.
///
/// With cores to spare, both at once take as long as the longer of the two; when verifying
/// takes every core, the store competes with it for them, and both at once is what this
/// machine can do at best: no restore can verify and store faster than the two jobs run
/// together with nothing to coordinate.
struct RestoreFloor {
    let verifier: SignedDataVerifier
    let pool: ConnectionPool

    /// Transaction ids of the stored copies are the restore's plus this: same length, so the
    /// rows have the same sizes, and no purchase the restores use.
    static let copyIdOffset: Int64 = 3_000_000_000_000

    /// The ids of the copies stored side by side with verifying: the restore's plus this, so
    /// they are neither the restore's nor the copies stored alone.
    static let sideBySideIdOffset: Int64 = 2 * copyIdOffset

    /// A verifier trusting the bench's test PKI, warmed with one JWS so its chain is known (the
    /// server's has seen it long before), and a connection to the server's database.
    static func make(workspace: BenchWorkspace, database: PostgresConfiguration) async throws -> RestoreFloor {
        let signer = workspace.signer
        let configuration = try VerifierConfiguration(
            bundleId: signer.bundleId, appAppleId: signer.appAppleId, environment: .sandbox,
            trustedRoots: [signer.pki.root])
        let floor = RestoreFloor(
            verifier: SignedDataVerifier(configuration: configuration, logger: Logger(label: "storesync.bench.floor")),
            pool: ConnectionPool(configuration: database, size: 1, logger: Logger(label: "storesync.bench.floor")))
        let warm = SignedEntries(signer: signer).purchases(count: 1, firstId: 9_000_000_000_000)
        _ = try await floor.verifyMilliseconds(warm.compactMap(\.signedTransaction))
        try await floor.pool.withConnection { try await $0.execute("SELECT 1") }
        return floor
    }

    /// Milliseconds to verify every JWS, one task per core, each a contiguous slice on a core
    /// of its own, sliced as the server slices a restore.
    func verifyMilliseconds(_ texts: [String]) async throws -> Double {
        let slices = CoreSpread.slices(of: texts.count, into: ProcessInfo.processInfo.activeProcessorCount)
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (part, range) in slices.enumerated() {
                group.addTask {
                    try await CoreSpread.onOwnCore(slice: part, of: slices.count) {
                        for jws in texts[range] { _ = try await verifier.verifyTransaction(jws) }
                    }
                }
            }
            try await group.waitForAll()
        }
        return (ContinuousClock.now - start).milliseconds
    }

    /// Milliseconds to store copies of `records` (ids moved by `idOffset`, every other byte the
    /// same, the signed texts included) as first claims of `accountId`, from BEGIN to the end
    /// of COMMIT.
    func storeMilliseconds(
        _ records: [TransactionRecord], for accountId: UUID, idOffset: Int64 = copyIdOffset
    ) async throws -> Double {
        // A restore splits and hashes its texts while recalling them, before its transaction.
        var splitter = SignedTextSplitter()
        let copies = records.map { record in
            var copy = record
            copy.transactionId = String(Int64(record.transactionId)! + idOffset)
            copy.originalTransactionId = String(Int64(record.originalTransactionId)! + idOffset)
            copy.signedText = record.signedTransaction.map { splitter.split($0) }
            return copy
        }
        let start = ContinuousClock.now
        try await pool.withTransaction { connection in
            // The bench's servers run without a webhook, so their restores queue no deliveries.
            try await FirstClaimWrites.store(
                copies, for: accountId, at: Date(), queuesWebhookDeliveries: false, on: connection)
        }
        return (ContinuousClock.now - start).milliseconds
    }

    /// Milliseconds from starting both to the end of the later: verifying every JWS on every
    /// core (``verifyMilliseconds(_:)``) while copies of `records` are stored
    /// (``storeMilliseconds(_:for:idOffset:)``, ids moved by ``sideBySideIdOffset``).
    func sideBySideMilliseconds(_ records: [TransactionRecord], for accountId: UUID) async throws -> Double {
        let texts = records.compactMap(\.signedTransaction)
        let start = ContinuousClock.now
        async let verified = verifyMilliseconds(texts)
        async let stored = storeMilliseconds(records, for: accountId, idOffset: Self.sideBySideIdOffset)
        _ = try await (verified, stored)
        return (ContinuousClock.now - start).milliseconds
    }

    func shutdown() async { await pool.shutdown() }
}
