import Foundation
import PostgresLibPQ
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite struct SignedPayloadStorageTests {
    /// Base64url JWS text is stored uncompressed (migration 0003): compressing it kept nothing.
    @Test func signedPayloadColumnsAreStoredUncompressed() async throws {
        try await withServer { server in
            let storage = try await server.database.withConnection { connection in
                try await connection.query(
                    """
                    SELECT attrelid::regclass::text || '.' || attname, attstorage::text FROM pg_attribute
                    WHERE attname IN ('signed_transaction', 'signed_renewal_info', 'signed_payload')
                      AND attrelid IN ('transactions'::regclass, 'renewal_infos'::regclass, 'unclaimed_versions'::regclass)
                    ORDER BY 1
                    """
                ).map { try $0.decode((String, String).self) }
            }
            #expect(storage.map(\.0) == [
                "renewal_infos.signed_renewal_info", "transactions.signed_transaction", "unclaimed_versions.signed_payload",
            ])
            #expect(storage.allSatisfy { $0.1 == "e" }, "\(storage)")
        }
    }

    /// A restore's entries are verified in one contiguous slice per core.
    @Test(arguments: [(0, 2), (1, 2), (5, 2), (1_000, 2), (7, 3), (3, 8)])
    func slicesCoverEveryEntryOnceInOrder(count: Int, parts: Int) {
        let slices = VerificationService.slices(of: count, into: parts)
        #expect(slices.flatMap { Array($0) } == Array(0..<count))
        #expect(slices.count == min(parts, count))
        #expect(slices.allSatisfy { !$0.isEmpty })
        if let longest = slices.map(\.count).max(), let shortest = slices.map(\.count).min() {
            #expect(longest - shortest <= 1)
        }
    }
}
