import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// The owner rows a restore writes for purchases no account held: inserted with their owner
/// at once, never left unowned, and never two owners when accounts race for them.
@Suite struct OwnerRowClaimTests {
    @Test func aFirstRestoreWritesEachNewPurchaseWithTheOwnerItsTokenOrItsPresenterGivesIt() async throws {
        try await withServer { server in
            let presenter = try await server.signUp()
            let other = try await server.signUp()
            let now = server.clock.now()
            let plain = TestPurchases.record(purchased: now)
            let ownToken = TestPurchases.record(TestCatalog.coins, type: .consumable, purchased: now, token: presenter.appAccountToken)
            let othersToken = TestPurchases.record(TestCatalog.coins, type: .consumable, purchased: now, token: other.appAccountToken)

            let response = try await server.restore([plain, ownToken, othersToken].map(server.entry), token: presenter.token)

            // The third goes to the account its token names, not to the presenter.
            #expect(response.verdicts.map(\.verdict) == [.accepted, .accepted, .ownedByOtherAccount])
            let rows = try await server.ownerRows()
            #expect(rows[plain.originalTransactionId] == OwnerRow(accountId: presenter.accountId, boundByToken: false))
            #expect(rows[ownToken.originalTransactionId] == OwnerRow(accountId: presenter.accountId, boundByToken: true))
            #expect(rows[othersToken.originalTransactionId] == OwnerRow(accountId: other.accountId, boundByToken: true))
            for (purchase, owner) in [(plain, presenter), (ownToken, presenter), (othersToken, other)] {
                let events = try await server.events(of: purchase.originalTransactionId)
                #expect(events.map(\.kind) == ["purchaseClaimed"])
                #expect(events.map(\.account) == [owner.accountId])
                #expect(try await server.holders(of: purchase.originalTransactionId) == [owner.accountId])
            }
        }
    }

    @Test func aDryRunLeavesNoOwnerRowBehind() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now())
            let response = try await server.restore([server.entry(purchase)], dryRun: true, token: account.token)
            #expect(response.verdicts.map(\.verdict) == [.accepted])
            #expect(try await server.count("purchase_owners") == 0)
            #expect(try await server.count("events") == 0)
        }
    }

    /// Three accounts present overlapping sets of purchases nobody held, in different orders,
    /// all at once and again: each purchase ends with one owner, held by that owner only,
    /// claimed once.
    @Test func threeAccountsRacingForOverlappingNewPurchasesLeaveEachWithOneOwner() async throws {
        try await withServer(configure: { $0.transferPolicy = .keep; $0.databasePoolSize = 6 }) { server in
            var accounts: [SessionResponse] = []
            for _ in 0..<3 { accounts.append(try await server.signUp()) }
            let now = server.clock.now()
            let purchases = (0..<30).map { TestPurchases.record(purchased: now.addingTimeInterval(Double($0))) }
            let entries = purchases.map(server.entry)
            let presented = [
                Array(entries[0..<20]), Array(entries[10..<30].reversed()), Array(entries[20..<30] + entries[0..<10]),
            ]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for round in 0..<2 {
                    for (account, slice) in zip(accounts, presented) {
                        let order = round == 0 ? slice : slice.reversed()
                        group.addTask { _ = try await server.restore(order, token: account.token) }
                    }
                }
                try await group.waitForAll()
            }

            let rows = try await server.ownerRows()
            #expect(rows.count == purchases.count)
            for purchase in purchases {
                let owner = try #require(rows[purchase.originalTransactionId]?.accountId)
                #expect(accounts.map(\.accountId).contains(owner))
                #expect(try await server.holders(of: purchase.originalTransactionId) == [owner])
                let events = try await server.events(of: purchase.originalTransactionId)
                #expect(events.map(\.kind) == ["purchaseClaimed"])
                #expect(events.map(\.account) == [owner])
            }
        }
    }
}

/// A `purchase_owners` row as the tests compare it.
struct OwnerRow: Equatable {
    let accountId: UUID?
    let boundByToken: Bool
}

extension TestApp {
    /// Every owner row, by purchase.
    func ownerRows() async throws -> [String: OwnerRow] {
        try await database.withConnection { connection in
            var rows: [String: OwnerRow] = [:]
            for row in try await connection.query("SELECT original_transaction_id, account_id, bound_by_token FROM purchase_owners") {
                let (id, accountId, bound) = try row.decode((String, UUID?, Bool).self)
                rows[id] = OwnerRow(accountId: accountId, boundByToken: bound)
            }
            return rows
        }
    }
}
