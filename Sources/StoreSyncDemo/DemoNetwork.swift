import Foundation
import StoreSyncClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A device's network: URLSession, with a switch for airplane mode.
final class DemoNetwork: StoreSyncTransport, @unchecked Sendable {  // `online` is only touched under `lock`.
    private let base = URLSessionTransport()
    private let lock = NSLock()
    private var online = true

    var isOnline: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return online
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            online = newValue
        }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard isOnline else { throw URLError(.notConnectedToInternet) }
        return try await base.send(request)
    }
}
