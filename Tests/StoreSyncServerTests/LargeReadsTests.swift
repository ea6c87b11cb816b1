import NIOCore
import NIOPosix
@testable import StoreSyncServer
import Testing

/// A connection reads a large body in pieces of up to a MiB (``LargeReads``), on a real socket.
@Suite struct LargeReadsTests {
    @Test func aConnectionReadsUpToAMebibyteAtOnceAndTheHandlerLeavesItsPipeline() async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let accepted = group.next().makePromise(of: (any Channel).self)
        let server = try await ServerBootstrap(group: group)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(LargeReads())
                    accepted.succeed(child)
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let client = try await ClientBootstrap(group: group).connect(to: server.localAddress!).get()
        let child = try await accepted.futureResult.get()

        let allocator = try await child.getOption(ChannelOptions.recvAllocator).get() as? AdaptiveRecvByteBufferAllocator
        #expect(allocator?.maximum == LargeReads.largestRead)
        #expect(allocator?.minimum == 64, "small reads still get small buffers")
        await #expect(throws: (any Error).self, "the handler is gone once the option is set") {
            try await child.pipeline.containsHandler(type: LargeReads.self).get()
        }

        try await client.close()
        try await server.close()
    }
}
