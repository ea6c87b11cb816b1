import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting

/// Apple's side of the stress test: refunds, refund reversals and subscription renewals for
/// random purchases, posted as signed Server Notifications while the devices work.
actor StressNotifier {
    private let server: TestServer
    private let model: StressModel
    private var generator: SeededGenerator

    init(server: TestServer, model: StressModel, seed: UInt64) {
        self.server = server
        self.model = model
        generator = SeededGenerator(seed: seed)
    }

    func run(until deadline: ContinuousClock.Instant) async throws {
        while ContinuousClock.now < deadline {
            guard let picked = await model.randomLatest(pick: generator.next()) else {
                try await Task.sleep(for: .milliseconds(10))
                continue
            }
            let (latest, type) = (picked.latest, picked.type)
            server.clock.advance(by: 60)
            let now = server.clock.now()
            let notification: NotificationType
            let version: TestPurchase
            if type == .autoRenewable, Int.random(in: 0..<3, using: &generator) == 0 {
                notification = .didRenew
                version = TestPurchase.buy(
                    latest.record.productId, on: server, token: latest.record.appAccountToken,
                    original: latest.record.originalTransactionId, purchased: now)
            } else if latest.record.isRevoked {
                notification = .refundReversed
                version = latest.resigned(at: now, on: server) {
                    $0.revocationDate = nil
                    $0.revocationReason = nil
                }
            } else {
                notification = .refund
                version = latest.refunded(at: now, on: server)
            }
            let response = try await server.postNotification(notification, transaction: version.record)
            let status = (try? JSONSerialization.jsonObject(with: response.body) as? [String: String])?["status"] ?? "?"
            await model.count("notification.\(notification.rawValue).\(response.status == 200 ? status : String(response.status))")
            if response.status == 200 {
                await model.register(version, appleId: -1)
            } else {
                await model.contradiction("notification \(notification.rawValue) answered \(response.status)")
            }
        }
    }
}
