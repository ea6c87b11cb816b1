public import AppStoreVerification
public import Crypto
public import Foundation
public import StoreSyncCore

/// Signs App Store payloads with a ``TestPKI``, the way Apple does: compact JWS, ES256,
/// `x5c` leaf → intermediate → root, Apple's JSON field names and millisecond dates.
///
/// What it signs verifies with a ``AppStoreVerification/SignedDataVerifier`` that trusts
/// the PKI's root and is configured with the same bundle id and environment.
public struct AppStoreTestSigner: Sendable {
    /// The hierarchy whose leaf signs.
    public var pki: TestPKI
    /// The bundle id written into payloads.
    public var bundleId: String
    /// The app Apple id written into notifications.
    public var appAppleId: Int64

    /// Creates a signer.
    ///
    /// - Parameters:
    ///   - pki: The hierarchy to sign with.
    ///   - bundleId: The bundle id to write.
    ///   - appAppleId: The app Apple id to write.
    public init(pki: TestPKI, bundleId: String = "com.example.storesync", appAppleId: Int64 = 1_234_567_890) {
        self.pki = pki
        self.bundleId = bundleId
        self.appAppleId = appAppleId
    }

    /// Signs Apple's transaction JSON for a record (bundle id and environment added).
    ///
    /// - Parameter record: The transaction; its evidence and JWS are ignored.
    /// - Returns: The compact JWS.
    public func signTransaction(_ record: TransactionRecord) -> String {
        sign(transactionPayload(for: record))
    }

    /// Signs Apple's renewal info JSON.
    ///
    /// - Parameter info: The renewal info; its JWS is ignored.
    /// - Returns: The compact JWS.
    public func signRenewalInfo(_ info: RenewalInfo) -> String {
        sign(renewalInfoPayload(for: info))
    }

    /// Signs a Server Notification V2 whose `data` names this signer's app, nesting a signed
    /// transaction and renewal info when given.
    ///
    /// - Parameters:
    ///   - type: The notification type.
    ///   - subtype: The subtype.
    ///   - uuid: The notification UUID.
    ///   - signedDate: When it was "signed".
    ///   - environment: The environment in `data`.
    ///   - transaction: The transaction to nest as `signedTransactionInfo`.
    ///   - renewalInfo: The renewal info to nest as `signedRenewalInfo`.
    /// - Returns: The compact JWS (`signedPayload`).
    public func signNotification(
        type: NotificationType,
        subtype: NotificationSubtype? = nil,
        uuid: UUID = UUID(),
        signedDate: Date,
        environment: AppStoreEnvironment,
        transaction: TransactionRecord? = nil,
        renewalInfo: RenewalInfo? = nil
    ) -> String {
        let data = NotificationData(
            appAppleId: appAppleId,
            bundleId: bundleId,
            bundleVersion: "1",
            environment: environment.appleName,
            signedTransactionInfo: transaction.map(signTransaction),
            signedRenewalInfo: renewalInfo.map(signRenewalInfo),
            status: transaction?.productType == .autoRenewable ? 1 : nil)
        return sign(
            NotificationPayload(
                notificationType: type, subtype: subtype, notificationUUID: uuid, data: data, signedDate: signedDate))
    }

    /// Signs any payload as Apple's JSON (millisecond dates).
    ///
    /// - Parameters:
    ///   - payload: A payload such as ``AppStoreVerification/TransactionPayload``.
    ///   - header: The header to write.
    ///   - signingKey: The key to sign with; the PKI's leaf key when `nil`.
    /// - Returns: The compact JWS.
    public func sign(_ payload: some Encodable, header: AppStoreTestHeader = .init(), signingKey: P256.Signing.PrivateKey? = nil)
        -> String
    {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = .sortedKeys
        // Encoding our own value types cannot fail; an empty payload would fail verification loudly.
        let json = (try? encoder.encode(payload)) ?? Data()
        return sign(payload: json, header: header, signingKey: signingKey)
    }

    /// Signs raw payload bytes: for malformed and edge-case tests.
    ///
    /// - Parameters:
    ///   - payload: The payload bytes, JSON or not.
    ///   - header: The header to write.
    ///   - signingKey: The key to sign with; the PKI's leaf key when `nil`.
    /// - Returns: The compact JWS.
    public func sign(payload: Data, header: AppStoreTestHeader = .init(), signingKey: P256.Signing.PrivateKey? = nil)
        -> String
    {
        var fields: [String: Any] = header.extra
        fields["alg"] = header.alg
        if !header.omitX5c { fields["x5c"] = header.x5c ?? pki.x5c }
        let headerJSON = (try? JSONSerialization.data(withJSONObject: fields, options: .sortedKeys)) ?? Data()
        return sign(rawHeader: headerJSON, payload: payload, signingKey: signingKey)
    }

    /// Signs raw header and payload bytes, e.g. a header that is not JSON.
    ///
    /// - Parameters:
    ///   - rawHeader: The header bytes.
    ///   - payload: The payload bytes.
    ///   - signingKey: The key to sign with; the PKI's leaf key when `nil`.
    /// - Returns: The compact JWS.
    public func sign(rawHeader: Data, payload: Data, signingKey: P256.Signing.PrivateKey? = nil) -> String {
        let signingInput = Self.base64URL(rawHeader) + "." + Self.base64URL(payload)
        let key = signingKey ?? pki.leafKey
        // P-256 signing with a valid key does not fail; a zero signature would fail verification loudly.
        let signature = (try? key.signature(for: Data(signingInput.utf8)))?.rawRepresentation ?? Data(count: 64)
        return signingInput + "." + Self.base64URL(signature)
    }

    /// Unpadded base64url, as JWS uses.
    ///
    /// - Parameter data: The bytes.
    /// - Returns: The encoded text.
    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
