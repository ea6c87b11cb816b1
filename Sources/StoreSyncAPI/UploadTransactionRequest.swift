/// The body of `POST /v1/transactions`: one StoreKit 2 JWS or one base64 app receipt.
public struct UploadTransactionRequest: Sendable, Hashable, Codable {
    /// The compact JWS of a StoreKit 2 transaction.
    public var signedTransaction: String?
    /// A base64 legacy app receipt.
    public var receipt: String?

    /// Creates an upload; give exactly one of the two.
    ///
    /// - Parameters:
    ///   - signedTransaction: The JWS.
    ///   - receipt: The base64 receipt.
    public init(signedTransaction: String? = nil, receipt: String? = nil) {
        self.signedTransaction = signedTransaction
        self.receipt = receipt
    }
}
