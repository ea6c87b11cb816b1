import AppStorePayloads
import Logging
import StoreSyncCore

extension SignedDataVerifier {
    /// Verifies an App Store Server Notification V2 `signedPayload`, and the signed
    /// transaction and renewal info nested in its `data`.
    ///
    /// - Parameter signedPayload: The compact JWS Apple posted.
    /// - Returns: The payload with its nested data verified and decoded.
    /// - Throws: ``VerificationError`` for the notification or for either nested token.
    public func verifyNotification(_ signedPayload: String) async throws(VerificationError) -> VerifiedNotification {
        let payload: NotificationPayload
        let evidence: Evidence
        do throws(VerificationError) {
            (payload, evidence) = try await verifiedPayload(signedPayload, as: NotificationPayload.self)
            try checkAppIdentity(of: payload)
        } catch {
            logRejection(error, of: "notification")
            throw error
        }
        let transaction = try await payload.data?.signedTransactionInfo.asyncMap { jws throws(VerificationError) in
            try await verifyTransaction(jws)
        }
        let renewalInfo = try await payload.data?.signedRenewalInfo.asyncMap { jws throws(VerificationError) in
            try await verifyRenewalInfo(jws)
        }
        logger.trace(
            "verified notification",
            metadata: [
                "appstore.notification.uuid": "\(payload.notificationUUID)",
                "appstore.notification.type": "\(payload.notificationType)",
            ])
        return VerifiedNotification(
            payload: payload, transaction: transaction, renewalInfo: renewalInfo, evidence: evidence)
    }

    /// Apple's checks of a notification: bundle id, environment and, for production data, app
    /// Apple id — taken from `data`, `summary` or `externalPurchaseToken`. Sandbox data carries no
    /// app Apple id, so a Production verifier that accepts Sandbox data checks it only on
    /// production data.
    private func checkAppIdentity(of payload: NotificationPayload) throws(VerificationError) {
        let bundleId: String?
        let appAppleId: Int64?
        let environment: String?
        if let data = payload.data {
            (bundleId, appAppleId, environment) = (data.bundleId, data.appAppleId, data.environment)
        } else if let summary = payload.summary {
            (bundleId, appAppleId, environment) = (summary.bundleId, summary.appAppleId, summary.environment)
        } else if let token = payload.externalPurchaseToken {
            (bundleId, appAppleId, environment) = (token.bundleId, token.appAppleId, token.environment)
        } else {
            throw .malformed("payload: the notification has no data, summary or externalPurchaseToken")
        }
        guard bundleId == configuration.bundleId else { throw .bundleMismatch }
        let signedFor = try checkEnvironment(environment)
        if signedFor == .production, appAppleId != configuration.appAppleId { throw .appAppleIdMismatch }
    }
}

extension Optional {
    /// `map` for an async transform with a typed error.
    fileprivate func asyncMap<Result, Failure: Error>(
        _ transform: (Wrapped) async throws(Failure) -> Result
    ) async throws(Failure) -> Result? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
