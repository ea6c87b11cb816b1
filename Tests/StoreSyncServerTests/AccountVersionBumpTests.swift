import Foundation
import PostgresLibPQ
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// A sync bumps the versions of every account it changed in one statement.
@Suite struct AccountVersionBumpTests {
    @Test func everyAccountIsBumpedOnceAndAMissingOneFailsTheWhole() async throws {
        try await withServer { server in
            let x = try await server.signUp().accountId
            let y = try await server.signUp().accountId
            let before = try await server.versions()
            let repository = EventRepository(queuesWebhookDeliveries: false)

            let bumped = try await server.database.withTransaction { try await repository.append([], bumpingVersionsOf: [x, y], on: $0) }
            #expect(bumped == [x: before[x]! + 1, y: before[y]! + 1])

            let missing = UUID()
            await #expect {
                try await server.database.withTransaction { try await repository.append([], bumpingVersionsOf: [x, missing], on: $0) }
            } throws: { error in
                if case StoreSyncError.accountMissing(let id) = error { return id == missing }
                return false
            }
            let after = try await server.versions()
            #expect(after[x] == bumped[x] && after[y] == bumped[y], "the failed bump rolled back")
        }
    }

    /// Carrying COMMIT (a restore that changed only the presenter's account), the statement
    /// ends its transaction: what it wrote is kept, and a dry run's ROLLBACK keeps nothing.
    @Test func aBumpEndingItsTransactionCommitsWithItOrRollsBackADryRun() async throws {
        try await withServer { server in
            let x = try await server.signUp().accountId
            let repository = EventRepository(queuesWebhookDeliveries: false)
            let event = NewEvent(accountId: x, kind: .renewed, originalTransactionId: "710", transactionId: "711", reason: "a test")
            let version = try await server.versions()[x]!

            let previewed = try await server.database.withTransaction(rollbackOnly: true) {
                try await repository.append([event], bumpingVersionsOf: [x], endingTransaction: true, on: $0)
            }
            #expect(previewed == [x: version + 1])
            #expect(try await server.versions()[x] == version, "the dry run kept nothing")

            let bumped = try await server.database.withTransaction {
                try await repository.append([event], bumpingVersionsOf: [x], endingTransaction: true, on: $0)
            }
            #expect(bumped == [x: version + 1])
            #expect(try await server.versions()[x] == version + 1)
            let events = try await server.database.withConnection { connection in
                try await connection.query("SELECT count(*) FROM events WHERE account_id = \(x) AND transaction_id = '711'")
                    .first?.decode(Int.self)
            }
            #expect(events == 1)
        }
    }

    /// The events a sync appends travel in the bump's statement: kept, with their webhook
    /// deliveries, exactly when the bump is.
    @Test func eventsAppendedWithTheBumpAreKeptOnlyWithIt() async throws {
        try await withServer { server in
            let x = try await server.signUp().accountId
            let repository = EventRepository(queuesWebhookDeliveries: true)
            let event = NewEvent(accountId: x, kind: .renewed, originalTransactionId: "700", transactionId: "701", reason: "a test")
            func counts() async throws -> (events: Int, deliveries: Int) {
                try await server.database.withConnection { connection in
                    try await connection.query(
                        """
                        SELECT (SELECT count(*) FROM events WHERE account_id = \(x)),
                               (SELECT count(*) FROM webhook_deliveries WHERE account_id = \(x))
                        """
                    ).first.map { try $0.decode((Int, Int).self) } ?? (-1, -1)
                }
            }
            let before = try await counts()
            let version = try await server.versions()[x]!

            let bumped = try await server.database.withTransaction {
                try await repository.append([event, event], bumpingVersionsOf: [x], on: $0)
            }
            #expect(bumped == [x: version + 1])
            let after = try await counts()
            #expect(after.events == before.events + 2 && after.deliveries == before.deliveries + 2)

            await #expect(throws: StoreSyncError.self) {
                try await server.database.withTransaction {
                    try await repository.append([event], bumpingVersionsOf: [x, UUID()], on: $0)
                }
            }
            #expect(try await counts() == after, "the failed bump took its events with it")
            #expect(try await server.versions()[x] == version + 1)
        }
    }
}
