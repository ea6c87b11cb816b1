public import AppStorePayloads
public import Foundation

/// One attempt of the App Store to deliver a notification to the app's server.
public struct AppStoreSendAttempt: Sendable, Hashable, Decodable {
    /// When the App Store tried.
    public var attemptDate: Date
    /// What happened.
    public var sendAttemptResult: AppStoreSendAttemptResult

    /// Describes an attempt.
    ///
    /// - Parameters:
    ///   - attemptDate: When.
    ///   - sendAttemptResult: What happened.
    public init(attemptDate: Date, sendAttemptResult: AppStoreSendAttemptResult) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}

/// The outcome of a notification delivery attempt (`sendAttemptResult`).
public struct AppStoreSendAttemptResult: AppleStringValue {
    /// Apple's spelling of the value.
    public var rawValue: String

    /// Wraps Apple's spelling, known or not.
    ///
    /// - Parameter rawValue: The value as it appears in the JSON.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The server answered with a 2xx status.
    public static let success: Self = "SUCCESS"
    /// The server did not answer in time.
    public static let timedOut: Self = "TIMED_OUT"
    /// The TLS handshake failed.
    public static let tlsIssue: Self = "TLS_ISSUE"
    /// The server redirected in a circle.
    public static let circularRedirect: Self = "CIRCULAR_REDIRECT"
    /// The server gave no answer.
    public static let noResponse: Self = "NO_RESPONSE"
    /// The connection failed.
    public static let socketIssue: Self = "SOCKET_ISSUE"
    /// The answer's charset is not supported.
    public static let unsupportedCharset: Self = "UNSUPPORTED_CHARSET"
    /// The answer was invalid.
    public static let invalidResponse: Self = "INVALID_RESPONSE"
    /// The connection closed early.
    public static let prematureClose: Self = "PREMATURE_CLOSE"
    /// The server answered with a status that is not 2xx.
    public static let unsuccessfulHTTPResponseCode: Self = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    /// Another failure.
    public static let other: Self = "OTHER"
}
