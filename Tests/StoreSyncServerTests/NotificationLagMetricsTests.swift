import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// How far behind Apple's notifications take effect is measured
/// (`storesync_appstore_notification_lag_seconds`): a backlog Apple retries after an outage
/// shows there, where before only the route's request count moved.
@Suite struct NotificationLagMetricsTests {
    private static let lag = "storesync_appstore_notification_lag_seconds"

    @Test func aNotificationSignedTenMinutesAgoIsCountedTenMinutesLate() async throws {
        try await withServer { server in
            let before = MetricsSamples(try await server.send("GET", "/metrics").body)
            // Signed ten minutes ago, posted now: as Apple retries one the server missed.
            let payload = server.signer.signNotification(
                type: .test, subtype: nil, uuid: UUID(), signedDate: server.clock.now().addingTimeInterval(-600),
                environment: .sandbox, transaction: nil, renewalInfo: nil)
            let request = NotificationRequest(signedPayload: payload)
            #expect(try await server.send("POST", "/v1/notifications/appstore", json: request).status == 200)
            let after = MetricsSamples(try await server.send("GET", "/metrics").body)
            // One registry serves every server of the test process: compare with before.
            #expect(after.value("\(Self.lag)_count") >= before.value("\(Self.lag)_count") + 1)
            #expect(after.value("\(Self.lag)_sum") - before.value("\(Self.lag)_sum") >= 600)
            #expect(after.value(#"\#(Self.lag)_bucket{le="900.0"}"#) >= before.value(#"\#(Self.lag)_bucket{le="900.0"}"#) + 1)

            #expect(after.text.contains("storesync_appstore_notification_last_processed_timestamp_seconds"))
        }
    }
}

/// The notification counter's `type` label takes Apple's spellings, and a bounded number of
/// them: invented types (only possible with unverified payloads allowed) share `other`.
@Suite struct NotificationTypeLabelTests {
    @Test func inventedTypesCannotGrowTheLabelsWithoutBoundNorHideADocumentedOne() {
        let labels = Set((0..<200).map { NotificationService.typeLabel(NotificationType(rawValue: "INVENTED_\($0)")) })
        #expect(labels.count <= NotificationService.undocumentedTypeLabelLimit + 1)
        #expect(labels.contains("other"))
        for type in NotificationType.documented {
            #expect(NotificationService.typeLabel(type) == type.rawValue, "after the flood, \(type) still has its name")
        }
    }
}
