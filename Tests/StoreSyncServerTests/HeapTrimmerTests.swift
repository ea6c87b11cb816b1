import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import Testing

@testable import StoreSyncServer

/// The heap is trimmed once large requests stop for a moment, never while one runs, and once
/// for a burst however many requests it held.
@Suite struct HeapTrimmerTests {
    /// Counts the trims a trimmer runs.
    private final class Trims: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func record() { count.withLock { $0 += 1 } }
    }

    private static let quiet = Duration.milliseconds(20)

    /// Waits, generously, until `trims` reaches `expected`; the test's own deadline is the bound.
    private func waitFor(_ trims: Trims, toReach expected: Int) async throws {
        for _ in 0..<500 where trims.value < expected {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func aBurstOfLargeRequestsIsTrimmedOnceAfterTheLastEnds() async throws {
        let trims = Trims()
        let trimmer = HeapTrimmer(quiet: Self.quiet, trim: trims.record)
        trimmer.started()
        trimmer.started()
        trimmer.ended()
        try await Task.sleep(for: Self.quiet * 5)
        #expect(trims.value == 0, "a large request still runs")
        trimmer.ended()
        try await waitFor(trims, toReach: 1)
        #expect(trims.value == 1)
        try await Task.sleep(for: Self.quiet * 5)
        #expect(trims.value == 1)
    }

    @Test func aLargeRequestStartingWhileTheTrimWaitsPutsItOff() async throws {
        let trims = Trims()
        let quiet = Duration.milliseconds(500)
        let trimmer = HeapTrimmer(quiet: quiet, trim: trims.record)
        trimmer.started()
        trimmer.ended()
        trimmer.started()
        try await Task.sleep(for: quiet * 3)
        #expect(trims.value == 0, "the trim that waited gave way to the request that started")
        trimmer.ended()
        try await waitFor(trims, toReach: 1)
        #expect(trims.value == 1)
    }

    @Test(arguments: [
        (HTTPRequest.Method.get, nil as Int?, false),
        (.delete, nil, false),
        (.post, 512, false),
        (.post, HeapTrimmer.largeBody - 1, false),
        (.post, HeapTrimmer.largeBody, true),
        (.put, 40 << 20, true),
        (.post, nil, true),
    ])
    func largeBodiesAreThoseDeclaredLargeOrNotDeclared(method: HTTPRequest.Method, length: Int?, large: Bool) {
        var fields = HTTPFields()
        if let length { fields[.contentLength] = String(length) }
        let head = HTTPRequest(method: method, scheme: "http", authority: "localhost", path: "/v1/restore", headerFields: fields)
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))
        #expect(HeapTrimMiddleware<StoreSyncRequestContext>.mayBeLarge(request) == large)
    }
}
