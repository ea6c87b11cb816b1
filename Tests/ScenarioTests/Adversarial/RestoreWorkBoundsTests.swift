import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Finding 6: one restore must not buy unbounded work. Legacy flags are bounded by the catalog
/// (a flag naming no product is dropped, all of them under one verdict). That each distinct
/// signed text is verified once however often a request repeats it is counted exactly on a
/// server process of its own (`storesyncTests`, `RestoreVerificationCountTests`).
///
/// The bounds are generous on purpose: they tell bounded work from work that grows with the
/// request, not fast from slow.
@Suite("Adversarial: work per restore") struct RestoreWorkBoundsTests {
    @Test("200,000 legacy flags answer small, within a small multiple of a one-flag restore")
    func legacyFlagsAreBoundedByTheCatalog() async throws {
        try await withLiveServer { server in
            let account = try await server.signUp()
            let normalStart = ContinuousClock.now
            let normal = try await server.restore([], legacyFlags: [TestCatalog.lifetime: true], token: account.token)
            let normalElapsed = ContinuousClock.now - normalStart
            #expect(normal.verdicts.map(\.verdict) == [.unverifiedClaim])

            var flags = [TestCatalog.lifetime: true]
            for index in 0..<200_000 { flags["com.attacker.flag.\(index)"] = true }
            let residentBefore = Self.residentBytes()
            let floodStart = ContinuousClock.now
            let response = try await server.send(
                "POST", "/v1/restore", token: account.token, json: RestoreRequest(entries: [], legacyFlags: flags))
            let floodElapsed = ContinuousClock.now - floodStart
            let residentAfter = Self.residentBytes()

            try #require(response.status == 200, "answered \(response.status): \(response.problem?.detail ?? "")")
            #expect(response.body.count < 16 * 1024, "the answer is \(response.body.count) bytes")
            let answer = try response.decode(SyncResponse.self)
            #expect(answer.verdicts.count <= TestCatalog.products.count + 1)
            #expect(answer.verdicts.first { $0.productId == TestCatalog.lifetime }?.verdict == .unverifiedClaim)
            let dropped = try #require(answer.verdicts.first { $0.productId == nil }, "one verdict for the unknown flags")
            #expect(dropped.verdict == .rejected)
            #expect(dropped.reason?.contains("200000") == true, "\(dropped.reason ?? "")")
            #expect(floodElapsed < max(normalElapsed * 50, .seconds(30)), "took \(floodElapsed), a one-flag restore \(normalElapsed)")
            if let residentBefore, let residentAfter {
                #expect(residentAfter - residentBefore < 512 * 1024 * 1024, "resident memory grew by \(residentAfter - residentBefore) bytes")
            }
        }
    }

    /// This process's resident set in bytes (the server runs in it), where `/proc` tells.
    private static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
