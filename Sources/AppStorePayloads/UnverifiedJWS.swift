public import StoreSyncCore

/// Reads the payload of a StoreKit 2 JWS *without verifying it*.
///
/// For a device that wants to cache and display what it bought before the server has
/// answered: the record carries the JWS, and only the server's verification makes it grant.
/// Never grant access from what this returns.
public enum UnverifiedJWS {
    /// The transaction a StoreKit 2 `jwsRepresentation` describes.
    ///
    /// - Parameter jws: The compact JWS.
    /// - Returns: The record, with evidence `.jws` and the JWS attached; the server decides
    ///   whether that evidence holds.
    /// - Throws: ``PayloadError`` when the text is not a StoreKit 2 signed transaction.
    public static func transaction(_ jws: String) throws(PayloadError) -> TransactionRecord {
        let payload = try transactionPayload(jws)
        let environment = payload.environment.flatMap(AppStoreEnvironment.init(appleName:)) ?? .production
        return try payload.record(evidence: .jws, environment: environment, signedText: SignedText(whole: jws))
    }

    /// The App Store environment a StoreKit 2 signed transaction names, as it names it.
    ///
    /// - Parameter jws: The compact JWS.
    /// - Returns: The environment; `nil` when the text is not a signed transaction or names no
    ///   environment Apple defines (never a guess).
    public static func environment(ofTransaction jws: String) -> AppStoreEnvironment? {
        (try? transactionPayload(jws))?.environment.flatMap(AppStoreEnvironment.init(appleName:))
    }

    private static func transactionPayload(_ jws: String) throws(PayloadError) -> TransactionPayload {
        let parts = jws.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard jws.utf8.count <= 64 * 1024, parts.count == 3, let bytes = Base64URL.decode(parts[1]) else {
            throw .malformed("not a compact JWS")
        }
        return try PayloadDecoder.decode(TransactionPayload.self, from: bytes, part: "payload")
    }
}
