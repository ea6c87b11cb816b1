public import AppStoreVerification
public import Foundation
public import StoreSyncCore

/// What the verifyReceipt stand-in answers to one request.
public indirect enum AppStoreReceiptStandInReply: Sendable {
    /// HTTP 200 with `{"status": N}` and nothing else, e.g. 21007 or 21005.
    case status(Int, isRetryable: Bool? = nil)
    /// HTTP 200 with a valid receipt of these entries (status 0 unless given), made at
    /// `createdAt` (`receipt_creation_date_ms`; left out when `nil`).
    case receipt(
        bundleId: String, environment: AppStoreEnvironment, inApp: [ReceiptEntry],
        latestReceiptInfo: [ReceiptEntry]? = nil, status: Int = 0, createdAt: Date? = nil)
    /// HTTP 200 with this exact body, JSON or not.
    case body(String)
    /// This HTTP status with an empty body.
    case httpStatus(Int)
    /// The reply, after a wait (longer than the client's timeout for a "slow" endpoint).
    case delayed(Duration, AppStoreReceiptStandInReply)
}
