/// Apple's error body (`ErrorPayload`): what Apple said about a refused request.
public struct AppStoreServerAPIErrorPayload: Sendable, Hashable, Codable {
    /// Apple's error code, when the body had one.
    public var errorCode: AppStoreServerAPIErrorCode?
    /// Apple's description of the error, when the body had one.
    public var errorMessage: String?

    /// Describes Apple's error body.
    ///
    /// - Parameters:
    ///   - errorCode: The code.
    ///   - errorMessage: The message.
    public init(errorCode: AppStoreServerAPIErrorCode? = nil, errorMessage: String? = nil) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}

extension AppStoreServerAPIErrorPayload: CustomStringConvertible {
    /// `errorCode 4040010: Transaction id not found.`, or what part of it Apple gave.
    public var description: String {
        switch (errorCode, errorMessage) {
        case (let code?, let message?): "errorCode \(code): \(message)"
        case (let code?, nil): "errorCode \(code)"
        case (nil, let message?): message
        case (nil, nil): "no error body"
        }
    }
}
