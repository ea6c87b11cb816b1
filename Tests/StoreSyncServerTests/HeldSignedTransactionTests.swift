import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// A restore presents mostly what the account already holds. A JWS whose exact text the account
/// holds verified (found by its SHA-256, migration 0004) is decoded, not verified again, on
/// every instance; anything else is verified in full.
///
/// The instance under test trusts only another PKI's root, so a text it verified itself would
/// be refused: a `known` verdict there proves no second verification happened, and a
/// `rejected` one proves a full one did.
@Suite struct HeldSignedTransactionTests {
    /// Runs `body` with a server and a second instance of it that trusts only a root which
    /// signed nothing here.
    private func withDistrustingInstance(_ body: (TestServer, TestServer) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesync-roots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let otherRoots = directory.appendingPathComponent("roots.pem")
        try Data(try TestPKI.make(name: "Unrelated").rootPEM.utf8).write(to: otherRoots)

        try await withServer { first in
            try await withSecondInstance(of: first, configure: { $0.trustedRootsPath = otherRoots.path }) { second in
                try await body(first, second)
            }
        }
    }

    /// The entry a device holds after buying: the record with the exact JWS it uploaded.
    private func buy(_ record: TransactionRecord, on server: TestServer, token: String) async throws -> TransactionRecord {
        var entry = record
        entry.signedTransaction = server.signer.signTransaction(record)
        _ = try await server.upload(entry.signedTransaction!, token: token)
        return entry
    }

    @Test func aTextTheAccountHoldsIsKnownOnAnotherInstanceWithoutASecondVerification() async throws {
        try await withDistrustingInstance { first, second in
            let account = try await first.signUp()
            let lifetime = try await buy(TestPurchases.record(purchased: first.clock.now()), on: first, token: account.token)
            let response = try await second.restore([lifetime], token: account.token)
            #expect(response.verdicts.map(\.verdict) == [.known])
            #expect(response.snapshot.entitlements.map(\.entitlementId) == ["premium"])
        }
    }

    @Test func aTextHeldOnlyByAnotherAccountIsVerifiedInFull() async throws {
        try await withDistrustingInstance { first, second in
            let owner = try await first.signUp()
            let other = try await first.signUp()
            let lifetime = try await buy(TestPurchases.record(purchased: first.clock.now()), on: first, token: owner.token)
            let response = try await second.restore([lifetime], token: other.token)
            #expect(response.verdicts.map(\.verdict) == [.rejected])
            #expect(response.snapshot.entitlements.isEmpty)
        }
    }

    @Test func anotherTextOfAHeldTransactionIsVerifiedInFull() async throws {
        try await withDistrustingInstance { first, second in
            let account = try await first.signUp()
            let lifetime = try await buy(TestPurchases.record(purchased: first.clock.now()), on: first, token: account.token)
            // The same transaction signed again: equal fields, another text (ECDSA signs with a
            // fresh nonce).
            let resigned = first.entry(lifetime)
            #expect(resigned.signedTransaction != lifetime.signedTransaction)
            let response = try await second.restore([resigned, lifetime], token: account.token)
            #expect(response.verdicts.map(\.verdict) == [.rejected, .known])
        }
    }

    @Test func aHeldTextPresentedWithOtherFieldsIsRejected() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let coins = try await buy(
                TestPurchases.record(TestCatalog.coins, type: .consumable, purchased: server.clock.now()), on: server,
                token: account.token)
            try await withSecondInstance(of: server) { restarted in
                var forged = coins
                forged.productId = TestCatalog.lifetime
                forged.productType = .nonConsumable
                let response = try await restarted.restore([forged], token: account.token)
                #expect(response.verdicts.map(\.verdict) == [.rejected])
                #expect(response.snapshot.entitlements.isEmpty)
            }
        }
    }

    /// The server's digest and migration 0004's SQL (which filled in rows stored before it)
    /// agree, and every stored JWS has one.
    @Test func everyStoredTextCarriesTheDigestSQLComputesForIt() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            _ = try await buy(TestPurchases.record(purchased: now), on: server, token: account.token)
            _ = try await server.restore(
                [server.entry(TestPurchases.record(TestCatalog.seasonPass, type: .nonRenewing, purchased: now))],
                token: account.token)
            let rows = try await server.database.withConnection { connection in
                try await connection.query(
                    """
                    SELECT signed_transaction_sha256 = sha256(convert_to(signed_transaction, 'UTF8'))
                    FROM transactions
                    """
                ).map { try $0.decode(Bool?.self) }
            }
            #expect(rows == [true, true])
        }
    }
}
