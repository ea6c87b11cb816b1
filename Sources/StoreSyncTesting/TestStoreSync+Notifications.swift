public import AppStoreVerification
public import Foundation
public import StoreSyncCore
import StoreSyncAPI

extension TestStoreSync {
    /// Posts an App Store Server Notification V2, signed by the test PKI at the clock's time,
    /// as Apple would.
    ///
    /// - Parameters:
    ///   - type: The notification type, e.g. `.refund`.
    ///   - subtype: The subtype.
    ///   - uuid: The notification UUID; a fresh one by default.
    ///   - transaction: The transaction version to nest.
    ///   - renewal: The renewal info to nest.
    /// - Returns: The server's response.
    /// - Throws: Transport errors.
    public func postNotification(
        _ type: NotificationType, subtype: NotificationSubtype? = nil, uuid: UUID = UUID(),
        transaction: TransactionRecord? = nil, renewal: RenewalInfo? = nil
    ) async throws -> TestResponse {
        let payload = signer.signNotification(
            type: type, subtype: subtype, uuid: uuid, signedDate: clock.now(), environment: .sandbox,
            transaction: transaction, renewalInfo: renewal)
        return try await send("POST", "/v1/notifications/appstore", json: NotificationRequest(signedPayload: payload))
    }
}
