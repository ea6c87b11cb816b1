/// A held response: wait for ``responseArrived``, do something, then open ``release``.
public struct ResponseGate: Sendable {
    /// Opens when the server's answer has reached the transport.
    public let responseArrived = AsyncLatch()
    /// Open it to hand the answer to the client.
    public let release = AsyncLatch()
}
