public import AppStorePayloads
public import StoreSyncCore

/// Signed renewal info that passed verification: Apple's fields and StoreSync's value.
public struct VerifiedRenewalInfo: Sendable, Hashable {
    /// Apple's payload as signed.
    public var payload: RenewalInfoPayload
    /// The renewal info, with the JWS in ``StoreSyncCore/RenewalInfo/signedRenewalInfo``.
    public var renewalInfo: RenewalInfo
    /// `jws`, or `unverifiedJWS` when the development switch let it through.
    public var evidence: Evidence

    /// Pairs a payload with its renewal info.
    ///
    /// - Parameters:
    ///   - payload: Apple's payload.
    ///   - renewalInfo: The StoreSync value.
    ///   - evidence: What vouches for it.
    public init(payload: RenewalInfoPayload, renewalInfo: RenewalInfo, evidence: Evidence = .jws) {
        self.payload = payload
        self.renewalInfo = renewalInfo
        self.evidence = evidence
    }
}
