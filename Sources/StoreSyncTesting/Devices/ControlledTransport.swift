import Foundation
public import StoreSyncClient

/// A transport for tests: the real URLSession transport, plus a switch that cuts the network,
/// a stand-in for whatever may answer in the server's place, a log of requests, and gates
/// that hold a response until the test releases it.
public final class ControlledTransport: StoreSyncTransport, @unchecked Sendable {  // Mutable state is only touched under `lock`.
    private let base = URLSessionTransport()
    private let lock = NSLock()
    private var offline = false
    private var interception: TransportResponse?
    private var log: [String] = []
    private var sent: [TransportRequest] = []
    private var gates: [String: HeldResponse] = [:]
    private var rewrite: (@Sendable (TransportRequest, TransportResponse) -> TransportResponse)?

    /// Creates an online transport with an empty log.
    public init() {}

    /// While `true`, every request fails as if the device had no connectivity.
    public var isOffline: Bool {
        get { locked { offline } }
        set { locked { offline = newValue } }
    }

    /// While set, every request is answered with this response and never reaches the server,
    /// as by a captive portal, a proxy or a firewall in the way.
    public var interceptingResponse: TransportResponse? {
        get { locked { interception } }
        set { locked { interception = newValue } }
    }

    /// While set, every answer of the server passes through it before the client hears it, as
    /// through a proxy that edits answers, or as if a later release of the server answered.
    public var rewritingResponses: (@Sendable (TransportRequest, TransportResponse) -> TransportResponse)? {
        get { locked { rewrite } }
        set { locked { rewrite = newValue } }
    }

    /// `METHOD /path` of every request that reached the server, in order.
    public var requests: [String] { locked { log } }

    /// Every request that reached the server, whole (headers and body), in order.
    public var sentRequests: [TransportRequest] { locked { sent } }

    /// The JSON bodies of the requests that reached a path, decoded as objects.
    ///
    /// - Parameter path: The path, e.g. `/v1/restore`.
    /// - Returns: One dictionary per request with a JSON object body.
    public func jsonBodies(sentTo path: String) -> [[String: Any]] {
        sentRequests.filter { $0.url.path == path }.compactMap { request in
            request.body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }
    }

    /// How many requests reached a path.
    ///
    /// - Parameter path: The path, e.g. `/v1/restore`.
    /// - Returns: The number of requests to it.
    public func requests(to path: String) -> Int { requests.filter { $0.hasSuffix(" " + path) }.count }

    /// Holds the next response to `path` (e.g. `/v1/restore`) until the gate opens: the
    /// server has answered, the client has not heard yet.
    ///
    /// - Parameters:
    ///   - path: The path whose next response is held.
    ///   - matches: Which request's response to hold, when several go to `path` (e.g. one
    ///     upload among others); requests it turns down pass through. Any request by default.
    /// - Returns: The gate: wait for its arrival, then open its release.
    public func holdNextResponse(
        to path: String, where matches: @escaping @Sendable (TransportRequest) -> Bool = { _ in true }
    ) -> ResponseGate {
        let gate = ResponseGate()
        locked { gates[path] = HeldResponse(gate: gate, matches: matches) }
        return gate
    }

    /// Sends a request through URLSession unless offline or intercepted, holding it at a gate
    /// if one is set.
    ///
    /// - Parameter request: The request.
    /// - Returns: The server's response, or ``interceptingResponse``.
    /// - Throws: `URLError(.notConnectedToInternet)` while offline; transport errors.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard !isOffline else { throw URLError(.notConnectedToInternet) }
        if let intercepted = interceptingResponse { return intercepted }
        let path = request.url.path
        locked {
            log.append("\(request.method) \(path)")
            sent.append(request)
        }
        var response = try await base.send(request)
        if let rewrite = rewritingResponses { response = rewrite(request, response) }
        let gate = locked { () -> ResponseGate? in
            guard let held = gates[path], held.matches(request) else { return nil }
            gates[path] = nil
            return held.gate
        }
        if let gate {
            await gate.responseArrived.open()
            await gate.release.wait()
        }
        return response
    }

    /// A gate waiting for the first response to its path whose request it matches.
    private struct HeldResponse {
        let gate: ResponseGate
        let matches: @Sendable (TransportRequest) -> Bool
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
