import AppStoreVerification
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct MutationFuzzTests {
    static let mutationCount = 10_000

    /// `STORESYNC_FUZZ_SEED` replays a run; otherwise each run explores new mutations.
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["STORESYNC_FUZZ_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: .min ... .max)
    }

    @Test func randomMutationsOfValidTokensNeverCrashAndNeverVerify() async throws {
        let seed = Self.seed
        print("MutationFuzzTests seed: \(seed) (replay with STORESYNC_FUZZ_SEED=\(seed))")
        var generator = SeededGenerator(seed: seed)
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let verifier = try Fixtures.verifier(trusting: pki)
        let transaction = signer.signTransaction(Fixtures.record(.autoRenewable))
        let notification = signer.signNotification(
            type: .didRenew, signedDate: Fixtures.signedAt, environment: .sandbox,
            transaction: Fixtures.record(.autoRenewable), renewalInfo: Fixtures.renewalInfo())
        // The originals verify, so every rejection below is the mutation's doing.
        _ = try await verifier.verifyTransaction(transaction)
        _ = try await verifier.verifyNotification(notification)
        let mutators = [JWSMutator(transaction), JWSMutator(notification)]

        var rejections: [String: Int] = [:]
        for index in 0..<Self.mutationCount {
            let isNotification = index % 2 == 1
            let (mutant, target) = mutators[index % 2].mutate(using: &generator)
            do throws(VerificationError) {
                if isNotification {
                    _ = try await verifier.verifyNotification(mutant)
                } else {
                    _ = try await verifier.verifyTransaction(mutant)
                }
                Issue.record("mutation \(index) of the \(target) verified (seed \(seed)): \(mutant)")
            } catch {
                rejections[error.caseName, default: 0] += 1
            }
        }

        #expect(rejections.values.reduce(0, +) == Self.mutationCount)
        // The mutations reach past the parser: signatures and chains are exercised too.
        #expect(rejections["invalidSignature", default: 0] > 0)
        #expect(rejections["malformed", default: 0] > 0)
        #expect(rejections["invalidChain", default: 0] > 0)
        print("MutationFuzzTests rejections: \(rejections.sorted { $0.key < $1.key })")
    }
}

extension VerificationError {
    /// The case name without its associated value.
    fileprivate var caseName: String {
        switch self {
        case .malformed: "malformed"
        case .unsupportedAlgorithm: "unsupportedAlgorithm"
        case .invalidChain: "invalidChain"
        case .invalidCertificateOID: "invalidCertificateOID"
        case .certificateExpired: "certificateExpired"
        case .invalidSignature: "invalidSignature"
        case .bundleMismatch: "bundleMismatch"
        case .environmentMismatch: "environmentMismatch"
        case .appAppleIdMismatch: "appAppleIdMismatch"
        }
    }
}
