import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue` when — and only when — the route starts
/// to read the body.
///
/// A client that sends the expectation holds its body back until the server says to go on,
/// or until its own timeout: curl asks for it before any body over 1 MiB (an app backend
/// replaying a restore, an operator's script). Answering at once, before the route has looked
/// at the request, would invite a body the route is about to refuse — megabytes from a client
/// without a valid token, or over the route's size limit. So the head passes on untouched and
/// the `100 Continue` waits for ``ExpectContinueMiddleware`` to signal ``proceed`` when the
/// route first reads the body, which it does only after authentication and the size check.
///
/// A route that answers without reading the body (401, 413, …) sends its final response
/// instead; the client then does not send the body, so the connection cannot carry another
/// request and is closed once that response is written. Expectations other than
/// `100-continue` pass through untouched.
final class ExpectContinueHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The user outbound event the middleware sends when a route reads the body.
    struct Proceed: Sendable {}

    private enum State {
        /// No request owes anything.
        case idle
        /// The request asked for `100 Continue` and has not had it.
        case owed
        /// The route refused without reading the body: close after the response.
        case refused
    }

    private var state = State.idle

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            let expectation = request.headerFields[.expect]?.lowercased()
            state = expectation == "100-continue" ? .owed : .idle
        case .body, .end:
            // A client that sends its body without waiting no longer needs the answer.
            if state == .owed { state = .idle }
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is Proceed else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        if state == .owed {
            state = .idle
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: promise)
        } else {
            promise?.succeed()
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response) where state == .owed && response.status.kind != .informational:
            state = .refused
            response.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .end where state == .refused:
            state = .idle
            // The write completes on the channel's event loop, where the context may be used.
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(data).whenComplete { _ in bound.value.close(promise: nil) }
            promise?.succeed()
        default:
            context.write(data, promise: promise)
        }
    }
}
