public import Logging

/// The request a task is handling, so that every line logged while handling it carries the
/// request id — whichever logger writes it: the request's own, a service's, the connection
/// pool's.
///
/// ``RequestIdMiddleware`` binds the id for the rest of the request; the executable installs
/// ``provider`` when it bootstraps logging.
public enum RequestLogMetadata {
    /// The id of the request this task handles; `nil` outside a request.
    @TaskLocal static var requestId: String?

    /// The metadata key of the request id: Hummingbird's own, so a line of the request's logger
    /// and a line of any other logger name it alike.
    public static let requestIdKey = "hb.request.id"

    /// Adds `hb.request.id` to every line logged while a request is handled.
    public static let provider = Logger.MetadataProvider {
        guard let requestId else { return [:] }
        return [requestIdKey: .string(requestId)]
    }
}
