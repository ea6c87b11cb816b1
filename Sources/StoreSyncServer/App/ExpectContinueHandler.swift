import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue` as soon as the request's head arrives.
///
/// A client that sends the expectation holds its body back until the server says to go on,
/// or until its own timeout: curl asks for it before any body over 1 MiB (an app backend
/// replaying a restore, an operator's script), and a restore of a few hundred JWS is that
/// large. Without an answer each such request stalled for curl's full second before its body
/// came (seen as `Server-Timing: app;dur=1038` on a 1,000-entry restore the server handles in
/// 20 ms). The head is accepted here unconditionally: the route decides everything else
/// (401, 413, …) as before. Expectations other than `100-continue` pass through untouched.
final class ExpectContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var request) = unwrapInboundIn(data),
            let expectation = request.headerFields[.expect], expectation.lowercased() == "100-continue"
        else {
            context.fireChannelRead(data)
            return
        }
        // Answered: the handlers after this one see a request that expects nothing more.
        request.headerFields[.expect] = nil
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        context.fireChannelRead(wrapInboundOut(.head(request)))
    }
}
