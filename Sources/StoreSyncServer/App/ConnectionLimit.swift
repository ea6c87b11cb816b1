import Metrics
import NIOCore
import Synchronization

/// The most HTTP connections a server keeps open at once (`HTTP_MAX_CONNECTIONS`).
///
/// A connection beyond the maximum is closed as soon as it opens, before anything is read
/// from it: a flood of idle connections then costs one file descriptor each for an instant
/// rather than until the idle timeout, and the connections already open — the clients being
/// served — keep working. A load balancer sees the close and tries another instance.
final class ConnectionLimit: Sendable {
    /// The maximum.
    let maximum: Int
    private let open = Atomic<Int>(0)

    /// - Parameter maximum: The most connections open at once (at least 1).
    init(maximum: Int) {
        self.maximum = max(1, maximum)
    }

    /// Connections open right now.
    var openConnections: Int { open.load(ordering: .relaxed) }

    /// A handler for one new connection, to put in its pipeline.
    func handler() -> any RemovableChannelHandler {
        Guard(limit: self)
    }

    /// Connections closed as they opened, every place being taken
    /// (`storesync_http_connections_refused_total`): a server at its maximum is otherwise seen
    /// only by the clients it turns away.
    private let refused = Counter(label: "storesync_http_connections_refused_total")

    /// Takes a place for a connection; `false` when every place is taken.
    fileprivate func enter() -> Bool {
        let (_, now) = open.add(1, ordering: .relaxed)
        guard now <= maximum else {
            open.subtract(1, ordering: .relaxed)
            refused.increment()
            return false
        }
        return true
    }

    fileprivate func leave() {
        open.subtract(1, ordering: .relaxed)
    }

    /// Counts its connection while it is open, or closes it when no place is free.
    private final class Guard: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        private let limit: ConnectionLimit
        private var counted = false

        init(limit: ConnectionLimit) {
            self.limit = limit
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { admit(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            admit(context)
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            release()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            release()
        }

        private func admit(_ context: ChannelHandlerContext) {
            guard !counted else { return }
            if limit.enter() {
                counted = true
            } else {
                context.close(promise: nil)
            }
        }

        private func release() {
            guard counted else { return }
            counted = false
            limit.leave()
        }
    }
}
