import AppStorePayloads
import Logging

extension AppStoreServerAPIClient {
    /// Runs one item's verification; a refusal is logged at warning, added to `skipped` and
    /// answered with `nil`, so the item never reaches the result.
    func verified<Item>(
        _ kind: AppStoreSkippedItem.Kind,
        from endpoint: String,
        skipped: inout [AppStoreSkippedItem],
        _ verify: () async throws(VerificationError) -> Item
    ) async -> Item? {
        do {
            return try await verify()
        } catch {
            skip(kind, from: endpoint, because: error, into: &skipped)
            return nil
        }
    }

    /// Verifies each signed transaction, keeping those that pass in order.
    func verifiedTransactions(
        _ signed: [String], from endpoint: String, skipped: inout [AppStoreSkippedItem]
    ) async -> [VerifiedTransaction] {
        var transactions: [VerifiedTransaction] = []
        transactions.reserveCapacity(signed.count)
        for jws in signed {
            let transaction = await verified(.transaction, from: endpoint, skipped: &skipped) {
                () throws(VerificationError) in try await verifier.verifyTransaction(jws)
            }
            if let transaction { transactions.append(transaction) }
        }
        return transactions
    }

    /// Records and logs an item refused for `reason`.
    func skip(
        _ kind: AppStoreSkippedItem.Kind, from endpoint: String, because reason: VerificationError,
        into skipped: inout [AppStoreSkippedItem]
    ) {
        skipped.append(AppStoreSkippedItem(kind: kind, reason: reason))
        logger.warning(
            "skipped a signed item from the App Store Server API that failed verification",
            metadata: [
                "appstore.api.endpoint": "\(endpoint)",
                "appstore.payload_kind": "\(kind.rawValue)",
                "appstore.verification.error": "\(reason)",
            ])
    }

    /// Decodes a `2xx` body as Apple's JSON (millisecond dates).
    func decode<Body: Decodable>(_ type: Body.Type, from bytes: [UInt8], endpoint: String)
        throws(AppStoreServerAPIError) -> Body
    {
        do {
            return try PayloadDecoder.decode(type, from: bytes, part: endpoint)
        } catch {
            throw .malformedResponse("\(error)")
        }
    }
}
