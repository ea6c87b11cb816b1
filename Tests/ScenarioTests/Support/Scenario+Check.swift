import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// The one checker every scenario ends with: devices (offline, from their verified
/// snapshots), accounts (the server's answer) and the database (owners, versions, events,
/// rows held) against the ``Expectation`` stated before the scenario ran.
extension Scenario {
    /// Checks everything the expectation states, recording one issue per mismatch.
    ///
    /// Besides what is stated, every checked account's server snapshot must carry its
    /// database version, and every checked device must hold a fresh verified snapshot of
    /// that same version: after the exchange, nobody is left behind.
    ///
    /// - Parameters:
    ///   - expectation: What must hold.
    ///   - moment: The point in time entitlements are evaluated at; the server clock's now.
    func check(_ expectation: Expectation, at moment: Date? = nil, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let moment = moment ?? server.clock.now()
        let versions = try await server.versions()

        for (name, expected) in expectation.accounts.sorted(by: { $0.key < $1.key }) {
            let account = account(name)
            let response = try await server.send("GET", "/v1/entitlements", token: account.session.token)
            try #require(response.status == 200, "account \(name): GET /v1/entitlements answered \(response.status)")
            let snapshot = try response.decode(Snapshot.self)
            let running = snapshot.entitlements.filter { $0.expiresAt.map { $0 > moment } ?? true }
            #expect(
                expected.matchOneToOne(running),
                "account \(name): expected \(expected), the server says \(running.map(\.summary))",
                sourceLocation: sourceLocation)
            #expect(
                snapshot.version == versions[account.id],
                "account \(name): snapshot version \(snapshot.version), database \(versions[account.id] ?? 0)",
                sourceLocation: sourceLocation)
        }

        for (name, expected) in expectation.devices.sorted(by: { $0.key < $1.key }) {
            let client = device(name).client
            let status = await client.entitlements(at: moment)
            #expect(status.freshness == .fresh, "device \(name): no fresh verified snapshot", sourceLocation: sourceLocation)
            #expect(
                expected.matchOneToOne(status.entitlements),
                "device \(name): expected \(expected), it shows \(status.entitlements.map(\.summary))",
                sourceLocation: sourceLocation)
            let accountId = await client.session?.accountId
            let held = status.version ?? 0
            let current = accountId.flatMap { versions[$0] } ?? 0
            let inStep = expectation.behind.contains(name) ? held < current : held == current
            #expect(
                inStep,
                "device \(name) holds version \(held) of \(self.name(of: accountId)), the database \(current)",
                sourceLocation: sourceLocation)
        }

        for (purchase, expectedOwner) in expectation.owners.sorted(by: { $0.key < $1.key }) {
            let owner = try await server.owner(of: purchase)
            #expect(
                owner == expectedOwner.map { account($0).id },
                "purchase \(purchase): owned by \(name(of: owner)), expected \(expectedOwner ?? "nobody")",
                sourceLocation: sourceLocation)
        }

        for (purchase, expectedKinds) in expectation.events.sorted(by: { $0.key < $1.key }) {
            let kinds = try await server.events(of: purchase).map(\.kind)
            #expect(kinds == expectedKinds, "purchase \(purchase): events \(kinds)", sourceLocation: sourceLocation)
        }

        for (name, expected) in expectation.holdings.sorted(by: { $0.key < $1.key }) {
            let held = try await purchasesHeld(by: account(name).id)
            #expect(held == expected, "account \(name) holds rows of \(held.sorted())", sourceLocation: sourceLocation)
        }

        if let purchases = expectation.purchases {
            let known = try await server.count("purchase_owners")
            #expect(known == purchases, "the server knows \(known) purchases", sourceLocation: sourceLocation)
        }
    }

    /// The purchases an account has transaction rows of.
    func purchasesHeld(by accountId: UUID) async throws -> Set<String> {
        try await server.database.withConnection { connection in
            Set(try await connection.query(
                "SELECT DISTINCT original_transaction_id FROM transactions WHERE account_id = \(accountId)"
            ).map { try $0.decode(String.self) })
        }
    }
}
