import AppStorePayloads
import AppStoreVerification
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

/// App Review and TestFlight buy in the sandbox against the production app: a Production
/// verifier that accepts Sandbox data verifies it exactly as strictly and says where it came from.
@Suite struct SandboxInProductionTests {
    private static func productionVerifier(_ pki: TestPKI) throws -> SignedDataVerifier {
        try Fixtures.verifier(trusting: pki, environment: .production, acceptsSandbox: true)
    }

    @Test func aSandboxTransactionIsTakenAndMarkedSandbox() async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).signTransaction(Fixtures.record(.nonConsumable, environment: .sandbox))

        let verified = try await Self.productionVerifier(pki).verifyTransaction(jws)

        #expect(verified.record.environment == .sandbox)
        #expect(verified.record.evidence == .jws)
    }

    @Test func aProductionTransactionIsStillMarkedProduction() async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).signTransaction(Fixtures.record(.nonConsumable, environment: .production))

        #expect(try await Self.productionVerifier(pki).verifyTransaction(jws).record.environment == .production)
    }

    @Test(arguments: [AppStoreEnvironment.xcode, .localTesting])
    func xcodeAndLocalTestingAreNeverTaken(environment: AppStoreEnvironment) async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).signTransaction(Fixtures.record(.nonConsumable, environment: environment))

        await #expect(throws: VerificationError.environmentMismatch) {
            try await Self.productionVerifier(pki).verifyTransaction(jws)
        }
    }

    @Test func aSandboxTransactionOfAnUntrustedChainIsRefusedAsAProductionOneWouldBe() async throws {
        let pki = try TestPKI.make(name: "Trusted")
        let impostor = try TestPKI.make(name: "Impostor")
        let jws = Fixtures.signer(impostor).signTransaction(Fixtures.record(.nonConsumable, environment: .sandbox))

        await #expect(throws: VerificationError.invalidChain) {
            try await Self.productionVerifier(pki).verifyTransaction(jws)
        }
    }

    @Test func withoutTheSwitchAProductionVerifierRefusesSandbox() async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).signTransaction(Fixtures.record(.nonConsumable, environment: .sandbox))

        await #expect(throws: VerificationError.environmentMismatch) {
            try await Fixtures.verifier(trusting: pki, environment: .production).verifyTransaction(jws)
        }
    }

    @Test func theSwitchMeansNothingToASandboxVerifier() async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).signTransaction(Fixtures.record(.nonConsumable, environment: .production))
        let verifier = try Fixtures.verifier(trusting: pki, environment: .sandbox, acceptsSandbox: true)

        #expect(!verifier.configuration.acceptsSandbox)
        await #expect(throws: VerificationError.environmentMismatch) { try await verifier.verifyTransaction(jws) }
    }

    @Test func aSandboxRenewalInfoIsMarkedSandbox() async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).signRenewalInfo(Fixtures.renewalInfo(environment: .sandbox))

        #expect(try await Self.productionVerifier(pki).verifyRenewalInfo(jws).renewalInfo.environment == .sandbox)
    }

    /// Apple's sandbox notifications carry no appAppleId; production ones must carry the app's.
    @Test func aSandboxNotificationNeedsNoAppAppleIdButAProductionOneNeedsTheRightOne() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let sandbox = NotificationPayload(
            notificationType: .refund, notificationUUID: UUID(),
            data: NotificationData(
                bundleId: Fixtures.bundleId, environment: "Sandbox",
                signedTransactionInfo: signer.signTransaction(Fixtures.record(.nonConsumable, environment: .sandbox))),
            signedDate: Fixtures.signedAt)

        let verified = try await Self.productionVerifier(pki).verifyNotification(signer.sign(sandbox))
        #expect(verified.transaction?.record.environment == .sandbox)

        let production = AppStoreTestSigner(pki: pki, bundleId: Fixtures.bundleId, appAppleId: 999)
            .signNotification(type: .test, signedDate: Fixtures.signedAt, environment: .production)
        await #expect(throws: VerificationError.appAppleIdMismatch) {
            try await Self.productionVerifier(pki).verifyNotification(production)
        }
    }
}
