import Hummingbird
import NIOCore
import NIOPosix
import StoreSyncTesting
import Testing

/// The loopback server the stand-ins run on: the code under test keeps connecting to a stand-in
/// (retries, webhook deliveries) while a test ends, and stopping the stand-in then must not
/// take the test process down.
@Suite struct LoopbackHTTPServerTests {
    /// Connections arriving while the server stops are the case that once trapped the whole
    /// test process: a connection accepted but not yet handed to a handler when the server's
    /// task was cancelled ("Deinited NIOAsyncWriter without calling finish()"). Every round
    /// ends its server once four clients are connecting as fast as they can, and they go on
    /// while it stops. The process living through the rounds, each `run` returning rather than
    /// throwing, is what this checks. (Whether the port refuses connections afterwards is not
    /// asked: another test's server may already have been given it.)
    @Test func aServerStoppedWhileClientsKeepConnectingEndsWithoutTakingTheProcessDown() async throws {
        let router = Router()
        router.get("ping") { _, _ in "pong" }
        for _ in 0..<25 {
            let connectors = try await LoopbackHTTPServer.run(router: router, label: "test.loopback") { port in
                let (connections, connected) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
                let connectors = (0..<4).map { _ in Task { await Self.connect(to: port, telling: connected) } }
                // The test ends, and its server stops, once the clients are connecting.
                var first = connections.makeAsyncIterator()
                await first.next()
                return connectors
            }
            for connector in connectors {
                connector.cancel()
                await connector.value
            }
        }
    }

    /// Opens and closes connections to `port` until the task is cancelled or one is refused,
    /// telling `connected` of each.
    private static func connect(to port: Int, telling connected: AsyncStream<Void>.Continuation) async {
        while !Task.isCancelled {
            do {
                try await openAndClose(port: port)
                connected.yield()
            } catch {
                return
            }
        }
    }

    private static func openAndClose(port: Int) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
        try? await channel.close()
    }
}
