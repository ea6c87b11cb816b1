import NIOCore

/// Lets a connection take up to ``largestRead`` bytes from its socket in one read, where NIO
/// stops at 64 KiB.
///
/// A restore's body is megabytes, and every read's bytes go through the HTTP decoder and the
/// body's stream to the route before the route sees the next: at 64 KiB, a thousand entries
/// are seventy such trips, each a hop between the event loop and the task decoding the body.
/// The allocator still adapts to what each read brings (it grows only when a read fills its
/// buffer, and shrinks again when reads come back small), so a connection that sends small
/// requests keeps small buffers, and a read's buffer lives only until its bytes are decoded.
///
/// It sets the option as its connection's pipeline is made, and leaves the pipeline.
final class LargeReads: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    /// The most bytes one read takes.
    static let largestRead = 1 << 20

    /// The allocator every connection reads with: NIO's adaptive one, with its own smallest
    /// and first sizes, up to ``largestRead``.
    static var allocator: AdaptiveRecvByteBufferAllocator {
        AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: largestRead)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Children of a server channel always offer their options here, on their event loop.
        try? context.channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.allocator)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
