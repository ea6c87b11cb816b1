import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// The routes as the tests call them, failing the test on an unexpected status.
extension TestServer {
    func upload(_ jws: String, token: String, expect status: Int = 200) async throws -> TestResponse {
        let response = try await send(
            "POST", "/v1/transactions", token: token, json: UploadTransactionRequest(signedTransaction: jws))
        #expect(response.status == status, "\(response.problem?.detail ?? "")")
        return response
    }

    func buy(_ record: TransactionRecord, token: String) async throws -> SyncResponse {
        try await upload(signer.signTransaction(record), token: token).decode(SyncResponse.self)
    }

    func restore(
        _ entries: [TransactionRecord], legacyFlags: [String: Bool]? = nil, userInitiated: Bool = true,
        dryRun: Bool = false, token: String
    ) async throws -> SyncResponse {
        let response = try await send(
            "POST", "/v1/restore", token: token,
            json: RestoreRequest(entries: entries, legacyFlags: legacyFlags, userInitiated: userInitiated, dryRun: dryRun))
        #expect(response.status == 200, "\(response.problem?.detail ?? "")")
        return try response.decode(SyncResponse.self)
    }

    /// A restore entry exactly as a device that holds the JWS sends it.
    func entry(_ record: TransactionRecord) -> TransactionRecord {
        var entry = record
        entry.signedTransaction = signer.signTransaction(record)
        return entry
    }

    func notify(
        _ type: NotificationType, subtype: NotificationSubtype? = nil, uuid: UUID = UUID(),
        transaction: TransactionRecord? = nil, renewal: RenewalInfo? = nil
    ) async throws -> String {
        let payload = signer.signNotification(
            type: type, subtype: subtype, uuid: uuid, signedDate: clock.now(), environment: .sandbox,
            transaction: transaction, renewalInfo: renewal)
        let response = try await send(
            "POST", "/v1/notifications/appstore", json: NotificationRequest(signedPayload: payload))
        #expect(response.status == 200, "\(response.problem?.detail ?? "")")
        return (try? JSONSerialization.jsonObject(with: response.body) as? [String: String])?["status"] ?? ""
    }

    func snapshot(token: String) async throws -> Snapshot {
        let response = try await send("GET", "/v1/entitlements", token: token)
        #expect(response.status == 200)
        return try response.decode(Snapshot.self)
    }

    func entitlementIds(token: String) async throws -> [String] {
        try await snapshot(token: token).entitlements.map(\.entitlementId)
    }

    /// Rows of a table, for "nothing changed" checks.
    func count(_ table: StaticString) async throws -> Int {
        try await database.withConnection { connection in
            try await connection.query("SELECT count(*)::bigint FROM \(unescaped: table)").first!.decode(Int.self)
        }
    }

    /// Row counts of every table StoreSync writes.
    func tableCounts() async throws -> [String: Int] {
        [
            "accounts": try await count("accounts"), "account_versions": try await count("account_versions"),
            "sessions": try await count("sessions"), "transactions": try await count("transactions"),
            "renewal_infos": try await count("renewal_infos"), "purchase_owners": try await count("purchase_owners"),
            "unclaimed_versions": try await count("unclaimed_versions"), "notifications": try await count("notifications"),
            "events": try await count("events"), "products": try await count("products"),
        ]
    }

    /// Version numbers of every account, for "nothing changed" checks.
    func versions() async throws -> [UUID: Int64] {
        try await database.withConnection { connection in
            var versions: [UUID: Int64] = [:]
            for row in try await connection.query("SELECT account_id, version FROM account_versions") {
                let (id, version) = try row.decode((UUID, Int64).self)
                versions[id] = version
            }
            return versions
        }
    }

    func owner(of originalTransactionId: String) async throws -> UUID? {
        try await database.withConnection { connection -> UUID? in
            guard let row = try await connection.query(
                "SELECT account_id FROM purchase_owners WHERE original_transaction_id = \(originalTransactionId)"
            ).first else { return nil }
            return try row.decode(UUID?.self)
        }
    }

    /// Event kinds of a purchase, oldest first, with the account each was written for.
    func events(of originalTransactionId: String) async throws -> [(account: UUID, kind: String)] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT account_id, kind FROM events WHERE original_transaction_id = \(originalTransactionId)
                ORDER BY event_id
                """
            ).map { row in
                let (account, kind) = try row.decode((UUID, String).self)
                return (account, kind)
            }
        }
    }
}

/// Runs a test against a fresh server and always stops it.
func withServer<R: Sendable>(
    clock: TestClock = TestClock(),
    configure: @Sendable (inout StoreSyncServer.ServerConfiguration) -> Void = { _ in },
    _ body: (TestServer) async throws -> R
) async throws -> R {
    let server = try await TestServer.start(clock: clock, configure: configure)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
