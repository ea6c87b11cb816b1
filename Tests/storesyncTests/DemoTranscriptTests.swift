import Foundation
import Testing

/// `make demo` as a newcomer runs it: the demo drives a real `storesync serve` and tells the
/// story it promises, a purchase through the StoreKit glue and a StoreKit 1 receipt restore
/// among it.
@Suite struct DemoTranscriptTests {
    static let demo = StoreSyncBinary.url.deletingLastPathComponent().appendingPathComponent("storesync-demo")

    /// The transcript's line for a call, as `call → result`.
    private static func line(_ call: String, in transcript: String) -> String? {
        transcript.split(separator: "\n").map(String.init).first { $0.hasPrefix("  \(call) ") }
    }

    @Test func theDemoBuysThroughTheGlueAndRestoresAStoreKit1Receipt() throws {
        let outcome = try StoreSyncBinary.run(
            ["--server", StoreSyncBinary.url.path], executable: Self.demo)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let transcript = outcome.standardOutput

        let bought = try #require(Self.line("purchase(lifetime)", in: transcript), "\(transcript)")
        #expect(bought.contains("paid with appAccountToken"))
        #expect(bought.hasSuffix("acknowledged by the server: accepted; finished"))
        let offline = try #require(Self.line("purchase(season)", in: transcript))
        #expect(offline.hasSuffix("queued in the outbox (offline); finished"))
        #expect(Self.line("flush()", in: transcript)?.contains("→ 0 pending") == true)

        let receipt = try #require(Self.line("restore(receipt:)", in: transcript))
        #expect(receipt.contains("verifyReceipt asked (production → sandbox); lifetime: accepted"))
        #expect(Self.line("restore(receipt:) again", in: transcript)?.contains(": known;") == true)
        #expect(transcript.contains("Done. Stopping the server"))
    }
}
