import AppStoreVerification
import Foundation
import Logging
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// A restore presents mostly what the account already holds. A JWS whose exact text the account
/// holds verified (found by its SHA-256, migration 0004) is taken from the row it was stored in,
/// not verified or decoded again, on every instance; anything else is verified in full.
///
/// The instance under test trusts only another PKI's root, so a text it verified itself would
/// be refused: a `known` verdict there proves no second verification happened, and a
/// `rejected` one proves a full one did.
@Suite struct HeldSignedTransactionTests {
    /// Runs `body` with a server and a second instance of it that trusts only a root which
    /// signed nothing here.
    private func withDistrustingInstance(_ body: (TestApp, TestApp) async throws -> Void) async throws {
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
    private func buy(_ record: TransactionRecord, on server: TestApp, token: String) async throws -> TransactionRecord {
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

    @Test func aHeldTextSentAloneIsKnownOnAnotherInstanceWithoutASecondVerification() async throws {
        try await withDistrustingInstance { first, second in
            let account = try await first.signUp()
            let lifetime = try await buy(TestPurchases.record(purchased: first.clock.now()), on: first, token: account.token)
            let response = try await second.send(
                "POST", "/v1/restore", token: account.token,
                json: RestoreRequest(entries: [.signedTransaction(try #require(lifetime.signedTransaction))]))
            let answer = try response.decode(SyncResponse.self)
            #expect(answer.verdicts.map(\.verdict) == [.known])
            #expect(answer.verdicts.map(\.transactionId) == [lifetime.transactionId])
            #expect(answer.snapshot.entitlements.map(\.entitlementId) == ["premium"])
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

    /// The same database served by an instance reconfigured for another environment: a held
    /// Sandbox row is taken by a Production instance under `grant`, refused naming the setting
    /// under `refuse`, and never taken as it is by an Xcode one (verifying the text refuses it).
    @Test(arguments: [
        (AppStoreEnvironment.production, SandboxInProduction.grant, VerdictKind.known, nil),
        (.production, .refuse, .rejected, "STORESYNC_SANDBOX_IN_PRODUCTION=refuse"),
        (.xcode, .grant, .rejected, "environment"),
    ] as [(AppStoreEnvironment, SandboxInProduction, VerdictKind, String?)])
    func aHeldTextOfAnotherEnvironmentFollowsTheEnvironmentRule(
        environment: AppStoreEnvironment, sandbox: SandboxInProduction, verdict: VerdictKind, reason: String?
    ) async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let lifetime = try await buy(TestPurchases.record(purchased: server.clock.now()), on: server, token: account.token)
            try await withSecondInstance(of: server, configure: { settings in
                settings.environment = environment
                settings.appAppleId = 1
                settings.sandboxInProduction = sandbox
            }) { other in
                let response = try await other.restore([lifetime], token: account.token)
                #expect(response.verdicts.map(\.verdict) == [verdict])
                if let reason { #expect(response.verdicts.first?.reason?.contains(reason) == true) }
            }
        }
    }

    /// A held text stands for its row, which must be field for field what verifying the text
    /// gives: the restore decides with it in place of a verification.
    @Test(arguments: ProductType.allCases)
    func aHeldVersionIsTheRecordVerifyingItsTextGives(type: ProductType) async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let product = TestCatalog.products.first { $0.type == type }!.productId
            let purchased = server.clock.now().addingTimeInterval(-2 * 86_400)
            // Every optional column filled in somewhere: expiry and group, a revocation, a token.
            let record = switch type {
            case .autoRenewable:
                TestPurchases.record(
                    product, type: type, purchased: purchased, expires: purchased.addingTimeInterval(30 * 86_400),
                    group: TestCatalog.subscriptionGroup)
            case .nonRenewing: TestPurchases.record(product, type: type, purchased: purchased, revoked: purchased + 3_600)
            case .nonConsumable: TestPurchases.record(product, type: type, purchased: purchased, token: UUID())
            default: TestPurchases.record(product, type: type, purchased: purchased)
            }
            let entry = try await buy(record, on: server, token: account.token)
            let jws = try #require(entry.signedTransaction)
            let verifier = SignedDataVerifier(
                configuration: try VerifierConfiguration(
                    bundleId: server.signer.bundleId, environment: server.configuration.environment,
                    trustedRoots: [server.pki.root]),
                logger: Logger(label: "test"))
            var verified = try await verifier.verifyTransaction(jws).record
            verified.signedTransaction = nil

            let digest = SignedTransactionDigest.bytes(of: jws)
            let found = try await server.database.withConnection {
                try await LookupQuery.run([account.accountId], withDigests: true, on: $0)[account.accountId]
            }
            let holdings = try #require(found)
            #expect(holdings.verifiedVersion(ofText: digest, claiming: entry.transactionId) == verified)
            #expect(holdings.verifiedVersion(ofText: Data(repeating: 0, count: 32), claiming: entry.transactionId) == nil)
            #expect(holdings.verifiedVersion(ofText: digest, claiming: "1") == nil)
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
    /// agree, and every stored JWS has one: the SHA-256 of the exact text, put back together
    /// from its parts (migration 0010).
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
                    SELECT signed_transaction_sha256 = sha256(convert_to(
                        coalesce(signed_transaction, storesync_jws(jws_header_sha256, jws_payload, jws_signature)), 'UTF8'))
                    FROM transactions
                    """
                ).map { try $0.decode(Bool?.self) }
            }
            #expect(rows == [true, true])
        }
    }
}
