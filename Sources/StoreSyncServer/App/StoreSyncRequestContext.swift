public import Hummingbird
public import NIOCore

/// The context of every StoreSync request: Hummingbird's core storage, the client address
/// (for rate limiting) and, once a middleware has checked the bearer token, the device.
public struct StoreSyncRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The signed-in device, set by ``DeviceAuthenticator`` on device routes.
    public var device: DeviceIdentity?
    /// The connection, for what only it can do (``ExpectContinueMiddleware``'s `100 Continue`).
    let connection: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        connection = source.channel
    }

    public var responseEncoder: StoreSyncResponseEncoder { StoreSyncResponseEncoder() }
}

/// The context of routes a signed-in device calls: the device is always there.
public struct DeviceRequestContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The device whose bearer token authenticated the request.
    public let device: DeviceIdentity
    /// The client's address, for throttling password checks.
    public let remoteAddress: SocketAddress?

    public init(context: StoreSyncRequestContext) throws {
        guard let device = context.device else { throw ProblemError.unauthorized() }
        coreContext = context.coreContext
        self.device = device
        remoteAddress = context.remoteAddress
    }

    public var responseEncoder: StoreSyncResponseEncoder { StoreSyncResponseEncoder() }
}
