import Foundation
import StoreSyncClient

/// A transport for tests: the real URLSession transport, plus a switch that cuts the network,
/// a log of requests, and gates that hold a response until the test releases it.
final class ControlledTransport: StoreSyncTransport, @unchecked Sendable {  // Mutable state is only touched under `lock`.
    private let base = URLSessionTransport()
    private let lock = NSLock()
    private var offline = false
    private var log: [String] = []
    private var gates: [String: ResponseGate] = [:]

    var isOffline: Bool {
        get { locked { offline } }
        set { locked { offline = newValue } }
    }

    /// `METHOD /path` of every request that reached the server, in order.
    var requests: [String] { locked { log } }

    /// How many requests reached a path.
    func requests(to path: String) -> Int { requests.filter { $0.hasSuffix(" " + path) }.count }

    /// Holds the next response to `path` (e.g. `/v1/restore`) until the gate opens: the
    /// server has answered, the client has not heard yet.
    func holdNextResponse(to path: String) -> ResponseGate {
        let gate = ResponseGate()
        locked { gates[path] = gate }
        return gate
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard !isOffline else { throw URLError(.notConnectedToInternet) }
        let path = request.url.path
        locked { log.append("\(request.method) \(path)") }
        let response = try await base.send(request)
        if let gate = locked({ gates.removeValue(forKey: path) }) {
            await gate.responseArrived.open()
            await gate.release.wait()
        }
        return response
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// A held response: wait for ``responseArrived``, do something, then open ``release``.
struct ResponseGate: Sendable {
    let responseArrived = AsyncLatch()
    let release = AsyncLatch()
}

/// Opens once; everyone waiting then proceeds.
actor AsyncLatch {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
