import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncWire
import Testing

/// An upload's or a restore's answer is read once: the snapshot from its own bytes, the
/// verdicts from the rest with `null` in the snapshot's place. It must accept exactly the
/// answers `JSONDecoder` accepts whole, and read the same values from them.
@Suite struct SyncAnswerDecodingTests {
    /// Answers every request with one fixed body.
    struct FixedAnswer: StoreSyncTransport {
        let body: Data

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            TransportResponse(status: 200, headers: ["ETag": #""v3""#], body: body)
        }
    }

    static let answer: SyncResponse = {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let snapshot = Snapshot(
            accountId: UUID(uuidString: "6F1D0C61-3E0A-4C2B-9B57-0A4C1E8F5D21")!, version: 3, generatedAt: now,
            validUntil: now.addingTimeInterval(3600),
            entitlements: [Entitlement(
                entitlementId: "premium", productId: "monthly", originalTransactionId: "1",
                expiresAt: now.addingTimeInterval(86_400), ownershipType: .purchased, source: .autoRenewable,
                environment: .production)],
            transactions: [])
        let verdicts = [
            Verdict(originalTransactionId: "1", transactionId: "7", verdict: .accepted, reason: "new \"purchase\" {"),
            Verdict(originalTransactionId: "2", transactionId: "2", verdict: .known),
        ]
        return SyncResponse(verdicts: verdicts, snapshot: snapshot)
    }()

    /// The answer as the server writes it: the snapshot signed, its signature member first.
    let serverBody: Data

    init() throws {
        serverBody = Data(try SyncResponse.body(verdicts: Self.answer.verdicts, snapshot: Self.answer.snapshot) { _ in "c2lnbmF0dXJl" })
    }

    func read(_ body: Data) async throws(StoreSyncClientError) -> SyncAnswer {
        let api = ServerAPI(baseURL: URL(string: "https://storesync.invalid")!, transport: FixedAnswer(body: body))
        return try await api.restore(RestoreRequest(entries: [], userInitiated: true), token: "t")
    }

    @Test func theServersAnswerIsReadWithItsSnapshotBytesAsSent() async throws {
        let answer = try await read(serverBody)
        #expect(answer.response == (try StoreSyncClient.decoder.decode(SyncResponse.self, from: serverBody)))
        #expect(answer.response.verdicts == Self.answer.verdicts)
        let range = try #require(SyncResponse.snapshotRange(in: serverBody))
        #expect(answer.snapshotBytes == serverBody.subdata(in: range))
        #expect(answer.etag == #""v3""#)
    }

    @Test(arguments: [
        // The verdicts broken, the snapshot intact.
        #"{"snapshot":SNAPSHOT,"verdicts":[{"originalTransactionId":"1""transactionId":"7"}]}"#,
        #"{"snapshot":SNAPSHOT,"verdicts":[{"originalTransactionId":"1","transactionId":"7","verdict":"accepted"}],"added":tru}"#,
        #"{"snapshot":SNAPSHOT,"verdicts":[]} trailing"#,
        // No verdicts at all.
        #"{"snapshot":SNAPSHOT}"#,
        // The snapshot broken, the verdicts intact.
        #"{"snapshot":{"signature":"c2ln","version":"three"},"verdicts":[]}"#,
        #"{"snapshot":{"signature":"c2ln",},"verdicts":[]}"#,
    ])
    func anAnswerBrokenAnywhereIsRefused(layout: String) async throws {
        let snapshot = String(decoding: serverBody.subdata(in: try #require(SyncResponse.snapshotRange(in: serverBody))), as: UTF8.self)
        let body = Data(layout.replacingOccurrences(of: "SNAPSHOT", with: snapshot).utf8)
        #expect(throws: (any Error).self, "the whole body does not decode either") {
            try StoreSyncClient.decoder.decode(SyncResponse.self, from: body)
        }
        await #expect(throws: StoreSyncClientError.self, "\(layout)") { try await read(body) }
    }

    /// Every single-byte deletion, and each of a few bytes that change JSON's structure put
    /// in place of every byte: the answer is read exactly when the whole body decodes, and
    /// then reads the same.
    @Test func everyEditIsReadExactlyAsTheWholeBodyDecodes() async throws {
        let original = Array(serverBody)
        let replacements: [UInt8?] = [nil] + Array(#"" \{}[],:n0"#.utf8) + [0x01]
        var accepted = 0
        for index in original.indices {
            for replacement in replacements where replacement != original[index] {
                var edited = original
                if let replacement { edited[index] = replacement } else { edited.remove(at: index) }
                let body = Data(edited)
                let whole = try? StoreSyncClient.decoder.decode(SyncResponse.self, from: body)
                let once = try? await read(body)
                #expect(once?.response == whole, "byte \(index) → \(replacement.map { String($0) } ?? "deleted")")
                if whole != nil { accepted += 1 }
            }
        }
        #expect(accepted > 0, "some edits (inside strings) still decode, and are compared")
    }
}
