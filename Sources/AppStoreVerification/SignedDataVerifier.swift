import AppStorePayloads
public import Logging
package import StoreSyncCore
import StoreSyncWire

/// Verifies and decodes what Apple signs for an app: StoreKit 2 transactions and renewal
/// info, and App Store Server Notifications V2 — the way Apple's App Store Server Library
/// `SignedDataVerifier` does (DESIGN.md §5).
///
/// A token is accepted only when it is a compact JWS with `alg` ES256, its `x5c` chain of
/// three certificates leads from a leaf and an intermediate carrying Apple's markers to a
/// configured trusted root with every certificate valid at the payload's `signedDate`, its
/// signature verifies with the leaf key, and it names the configured bundle id, environment
/// and (production notifications) app Apple id. Chains that verified are cached, so the
/// next token from the same chain costs one signature check.
public final class SignedDataVerifier: Sendable {
    /// What this verifier accepts.
    public let configuration: VerifierConfiguration
    let chainVerifier: CertificateChainVerifier
    let logger: Logger

    /// Creates a verifier; says so loudly when the development switch is on.
    ///
    /// - Parameters:
    ///   - configuration: What to accept.
    ///   - logger: Where rejections are logged (debug) and the development switch announced.
    public init(configuration: VerifierConfiguration, logger: Logger) {
        self.configuration = configuration
        self.chainVerifier = CertificateChainVerifier(trustedRoots: configuration.trustedRoots)
        self.logger = logger
        if configuration.allowUnverified {
            // The one place a library picks a loud level: a server that accepts forged
            // purchases must never do so quietly.
            logger.warning(
                "UNVERIFIED App Store data will be ACCEPTED (development switch on): signatures and certificate chains that fail are let through, marked unverifiedJWS",
                metadata: [
                    "appstore.environment": "\(configuration.environment.appleName)",
                    "appstore.bundle_id": "\(configuration.bundleId)",
                ]
            )
        }
    }

    /// Verifies a StoreKit 2 signed transaction (`signedTransactionInfo`, or `jwsRepresentation`).
    ///
    /// - Parameter jws: The compact JWS.
    /// - Returns: Apple's payload and the StoreSync record, whose evidence is `jws` (or
    ///   `unverifiedJWS` under the development switch) and whose `signedTransaction` is `jws`.
    /// - Throws: ``VerificationError`` saying why the token is refused.
    public func verifyTransaction(_ jws: String) async throws(VerificationError) -> VerifiedTransaction {
        try await verifyTransaction(SignedText(whole: jws))
    }

    /// Verifies a StoreKit 2 signed transaction however it is held: a text split after its
    /// header (as a restore holds its texts) is verified without joining it again.
    ///
    /// - Parameter text: The compact JWS.
    /// - Returns: Apple's payload and the StoreSync record, whose evidence is `jws` (or
    ///   `unverifiedJWS` under the development switch) and whose signed text is `text`.
    /// - Throws: ``VerificationError`` saying why the token is refused.
    package func verifyTransaction(_ text: SignedText) async throws(VerificationError) -> VerifiedTransaction {
        do throws(VerificationError) {
            let (payload, evidence) = try await verifiedPayload(CompactJWS(text, verifiedChains: chainVerifier.cache), as: TransactionPayload.self)
            guard payload.bundleId == configuration.bundleId else { throw VerificationError.bundleMismatch }
            let environment = try checkEnvironment(payload.environment)
            let record = try translatingPayloadErrors { () throws(PayloadError) in
                try payload.record(evidence: evidence, environment: environment, signedText: text)
            }
            return VerifiedTransaction(payload: payload, record: record)
        } catch {
            logRejection(error, of: "transaction")
            throw error
        }
    }

    /// Verifies a signed renewal info (`signedRenewalInfo`).
    ///
    /// - Parameter jws: The compact JWS.
    /// - Returns: Apple's payload and the StoreSync renewal info.
    /// - Throws: ``VerificationError`` saying why the token is refused.
    public func verifyRenewalInfo(_ jws: String) async throws(VerificationError) -> VerifiedRenewalInfo {
        do throws(VerificationError) {
            let (payload, evidence) = try await verifiedPayload(jws, as: RenewalInfoPayload.self)
            // Renewal info carries no bundle id; Apple checks only its environment.
            let environment = try checkEnvironment(payload.environment)
            let renewalInfo = try translatingPayloadErrors { () throws(PayloadError) in
                try payload.renewalInfo(environment: environment, signedRenewalInfo: jws)
            }
            return VerifiedRenewalInfo(payload: payload, renewalInfo: renewalInfo, evidence: evidence)
        } catch {
            logRejection(error, of: "renewal info")
            throw error
        }
    }

    /// Parses, decodes and checks trust: the steps common to every kind of signed data.
    ///
    /// Under the development switch a trust failure is forgiven and the evidence says so;
    /// form errors never are.
    func verifiedPayload<Payload: SignedAppStorePayload & FastDecodable>(_ text: String, as type: Payload.Type)
        async throws(VerificationError) -> (Payload, Evidence)
    {
        try await verifiedPayload(CompactJWS(text, verifiedChains: chainVerifier.cache), as: type)
    }

    /// ``verifiedPayload(_:as:)`` for a token already split into its parts.
    func verifiedPayload<Payload: SignedAppStorePayload & FastDecodable>(_ jws: CompactJWS, as type: Payload.Type)
        async throws(VerificationError) -> (Payload, Evidence)
    {
        let payload: Payload
        if let plain = Payload.fastDecoded(from: jws.payload) {
            payload = plain
        } else {
            payload = try translatingPayloadErrors { () throws(PayloadError) in
                try PayloadDecoder.decode(type, from: jws.payload, part: "payload")
            }
        }
        guard let signedDate = payload.signingDate else { throw .malformed("payload: signedDate is missing") }
        do throws(VerificationError) {
            try await chainVerifier.verify(jws, signedAt: signedDate)
            return (payload, .jws)
        } catch where error.isTrustFailure && configuration.allowUnverified {
            logger.debug(
                "accepting unverified signed data under the development switch",
                metadata: ["appstore.verification.error": "\(error)"])
            return (payload, .unverifiedJWS)
        }
    }

    /// Apple's rule: the payload's environment must be the configured one (or Sandbox, on a
    /// Production verifier that accepts it).
    ///
    /// - Returns: The payload's environment.
    @discardableResult
    func checkEnvironment(_ appleName: String?) throws(VerificationError) -> AppStoreEnvironment {
        guard let appleName, let environment = AppStoreEnvironment(appleName: appleName),
            configuration.accepts(environment)
        else { throw .environmentMismatch }
        return environment
    }

    func logRejection(_ error: VerificationError, of kind: String) {
        logger.debug(
            "rejected signed \(kind)",
            metadata: ["appstore.verification.error": "\(error)", "appstore.payload_kind": "\(kind)"])
    }
}
