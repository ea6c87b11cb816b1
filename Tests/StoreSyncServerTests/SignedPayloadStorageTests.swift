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
}
