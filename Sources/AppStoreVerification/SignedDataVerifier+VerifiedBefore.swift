import StoreSyncCore

extension SignedDataVerifier {
    /// Decodes a signed transaction whose exact text verified before, without checking its
    /// signature and certificate chain again.
    ///
    /// For a caller that knows the text verified: StoreSync stores a JWS with `jws` evidence
    /// only after ``verifyTransaction(_:)`` accepted it, and recognises it again by the SHA-256
    /// of its text. What the signature and the chain prove depends only on those bytes and on
    /// the trusted roots (each certificate's validity is judged at the payload's own
    /// `signedDate`, not at the time of checking), so checking them again proves nothing new.
    /// The cheap checks are made again (the form of the token, bundle id, environment), so a
    /// server configured for another app or environment still refuses it.
    ///
    /// Never call this for a text that has not verified: it does not look at the signature.
    ///
    /// - Parameter jws: The compact JWS, byte for byte the text that verified.
    /// - Returns: Apple's payload and the record, with evidence `jws`.
    /// - Throws: ``VerificationError`` when the text is not a signed transaction of this app
    ///   and environment.
    public func transaction(verifiedBefore jws: String) throws(VerificationError) -> VerifiedTransaction {
        do throws(VerificationError) {
            let payload = try decodePayload(try CompactJWS.payload(of: jws), as: TransactionPayload.self)
            return try transaction(payload, evidence: .jws, jws: jws)
        } catch {
            logRejection(error, of: "transaction")
            throw error
        }
    }
}
