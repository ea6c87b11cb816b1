import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Finding 9: input that looks valid must never reach the database's own checks (a 500), so
/// every length is counted in the column's unit, Unicode code points; and the 500 path, when
/// something else does fail, logs no row data.
@Suite("Adversarial: input units and log content") struct InputUnitsAndLogsTests {
    @Test("A device name of 200 characters with combining marks is a 400 naming deviceName")
    func deviceNamesAreCountedInCodePoints() async throws {
        try await withLiveServer { server in
            let accented = String(repeating: "e\u{301}", count: 200)
            #expect(accented.count == 200 && accented.unicodeScalars.count == 400)
            let rowsBefore = try await server.tableCounts()

            let refused = try await server.send(
                "POST", "/v1/accounts",
                json: Credentials(email: TestAccount.email(), password: TestAccount.password, deviceName: accented))

            #expect(refused.status == 400, "answered \(refused.status): \(refused.problem?.detail ?? "")")
            #expect(refused.problem?.field == "deviceName")
            #expect(try await server.tableCounts() == rowsBefore)
            let longest = String(repeating: "e\u{301}", count: 100)
            let accepted = try await server.send(
                "POST", "/v1/accounts",
                json: Credentials(email: TestAccount.email(), password: TestAccount.password, deviceName: longest))
            #expect(accepted.status == 201, "200 code points fit the column")
        }
    }

    @Test("Signed data whose ids or numbers do not fit the columns is a 4xx, not a 500")
    func signedFieldsBeyondTheColumnsAreRefused() async throws {
        try await withLiveServer { server in
            let account = try await server.signUp()
            let purchase = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let longId = String(repeating: "7", count: 65)
            var tooLong = purchase.record
            (tooLong.transactionId, tooLong.originalTransactionId) = (longId, longId)
            var tooMany = purchase.record
            tooMany.quantity = Int(Int32.max) + 1
            let rowsBefore = try await server.tableCounts()

            for record in [tooLong, tooMany] {
                let jws = server.signer.signTransaction(record)
                let upload = try await server.send(
                    "POST", "/v1/transactions", token: account.token, json: UploadTransactionRequest(signedTransaction: jws))
                #expect(upload.status == 422, "answered \(upload.status): \(upload.problem?.detail ?? "")")
                #expect(upload.problem?.field == "signedTransaction")
                var sent = record
                sent.signedTransaction = jws
                let restored = try await server.send(
                    "POST", "/v1/restore", token: account.token, json: RestoreRequest(entries: [sent]))
                #expect(restored.status == 200, "answered \(restored.status)")
                #expect(try restored.decode(SyncResponse.self).verdicts.map(\.verdict) == [.rejected])
            }
            #expect(try await server.tableCounts() == rowsBefore)
        }
    }

    @Test("A failing row's contents never reach the log")
    func theServerErrorPathLogsNoRowData() async throws {
        let captured = CapturedLog()
        let setup = try await TestSetup.make()
        let server = try await TestServer.start(serving: setup, logger: captured.logger())
        do {
            let deviceName = "device-\(UUID().uuidString)"
            // A constraint the server's own rules know nothing of: the insert of the session fails
            // in PostgreSQL, whose error detail quotes the whole row, token hash included.
            try await server.database.withConnection { connection in
                try await connection.execute(PostgresQuery(unsafeSQL: """
                    ALTER TABLE sessions ADD CONSTRAINT adversarial_device_name_check
                        CHECK (device_name IS DISTINCT FROM '\(deviceName)')
                    """))
            }

            let response = try await server.send(
                "POST", "/v1/accounts",
                json: Credentials(email: TestAccount.email(), password: TestAccount.password, deviceName: deviceName))

            #expect(response.status == 500)
            let lines = captured.lines
            #expect(lines.contains { $0.contains("adversarial_device_name_check") }, "the log names what failed: \(lines)")
            #expect(!lines.contains { $0.contains("Failing row") }, "\(lines)")
            #expect(!lines.contains { $0.contains(deviceName) }, "\(lines)")
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }
}

/// Every log line the server writes, message and metadata, as text.
final class CapturedLog: Sendable {
    private let entries = NIOLockedValueBox<[String]>([])

    var lines: [String] { entries.withLockedValue { $0 } }

    func logger() -> Logger {
        Logger(label: "storesync.adversarial") { _ in Handler(log: self) }
    }

    fileprivate func append(_ line: String) { entries.withLockedValue { $0.append(line) } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            log.append("\(event.level) \(event.message) \(merged)")
        }
    }
}
