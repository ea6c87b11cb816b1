import Crypto
import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import StoreSyncWire
import Testing

/// A sync's answer is made while its last statement (the events, the version bumps and COMMIT)
/// runs, so the version it signs is worked out before the bump happens: these check it is the
/// version stored, whatever the sync changed.
@Suite struct SyncAnswerVersionTests {
    @Test func aRestoreAnswersTheVersionItStoredAndARepeatTheSameOne() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let purchases = (0..<3).map {
                TestPurchases.record(id: String(5_100_000_000_000 + $0), purchased: now.addingTimeInterval(-Double($0) * 60))
            }
            let before = try await server.versions()[account.accountId]!

            let first = try await server.restore(purchases.map { server.entry($0) }, token: account.token)
            let stored = try await server.versions()[account.accountId]!
            #expect(stored == before + 1, "one restore, one bump")
            #expect(first.snapshot.version == stored)
            #expect(first.snapshot.transactions.count == 3)
            try expectSigned(first.snapshot, by: server)

            let again = try await server.restore(purchases.map { server.entry($0) }, token: account.token)
            #expect(again.verdicts.map(\.verdict) == [.known, .known, .known])
            #expect(again.snapshot.version == stored, "a restore that changes nothing answers the version it found")
            #expect(try await server.versions()[account.accountId] == stored)
            #expect(try await server.snapshot(token: account.token).version == stored)
        }
    }

    /// A move bumps the account it leaves as well: the presenter's answer names the presenter's
    /// own new version, and the transaction stays open past the bump to check the other's row.
    @Test func aTransferAnswersThePresentersStoredVersion() async throws {
        try await withServer { server in
            let x = try await server.signUp()
            let y = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(purchase, token: x.token)
            let before = try await server.versions()

            let restored = try await server.restore([server.entry(purchase)], userInitiated: true, token: y.token)

            #expect(restored.verdicts.map(\.verdict) == [.transferred])
            let after = try await server.versions()
            #expect(after[x.accountId] == before[x.accountId]! + 1)
            #expect(after[y.accountId] == before[y.accountId]! + 1)
            #expect(restored.snapshot.version == after[y.accountId])
            try expectSigned(restored.snapshot, by: server)
        }
    }

    @Test func aDryRunPreviewsTheVersionItLeavesAsItWas() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let before = try await server.versions()[account.accountId]!

            let preview = try await server.restore(
                [server.entry(TestPurchases.record(purchased: server.clock.now()))], dryRun: true, token: account.token)

            #expect(preview.verdicts.map(\.verdict) == [.accepted])
            #expect(preview.snapshot.signature.isEmpty, "a preview is never signed")
            #expect(preview.snapshot.version == before + 1, "what the account's version would become")
            #expect(try await server.versions()[account.accountId] == before, "the dry run kept nothing")
        }
    }

    /// Restores of one account at once take its lock in turn: each answers the version its own
    /// bump stored, none the same, the last the account's.
    @Test func concurrentRestoresOfOneAccountEachAnswerTheVersionTheyStored() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let before = try await server.versions()[account.accountId]!
            let count = 8
            let entries = (0..<count).map {
                server.entry(TestPurchases.record(id: String(5_200_000_000_000 + $0), purchased: now.addingTimeInterval(-Double($0))))
            }

            let answers = try await withThrowingTaskGroup(of: SyncResponse.self) { group in
                for entry in entries { group.addTask { try await server.restore([entry], token: account.token) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            let versions = answers.map(\.snapshot.version).sorted()
            #expect(versions == Array((before + 1)...(before + Int64(count))))
            #expect(try await server.versions()[account.accountId] == before + Int64(count))
            for answer in answers {
                #expect(answer.snapshot.transactions.count == Int(answer.snapshot.version - before),
                    "each answer shows what its version holds")
                try expectSigned(answer.snapshot, by: server)
            }
        }
    }

    private func expectSigned(_ snapshot: Snapshot, by server: TestApp) throws {
        let key = try Curve25519.Signing.PublicKey(rawRepresentation: try #require(Data(base64Encoded: server.signingPublicKey)))
        #expect(key.isValidSignature(try #require(Data(base64Encoded: snapshot.signature)), for: try snapshot.signedBytes()))
    }
}
