import Foundation
import Hummingbird
import Logging
import PostgresLibPQ
import Prometheus
@testable import StoreSyncServer
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The OpenAPI document must describe every route the server registers.
@Suite struct OpenAPICoverageTests {
    /// `METHOD /path` for every operation of the served document.
    private static func documentedOperations(_ yaml: String) -> Set<String> {
        var operations: Set<String> = []
        var currentPath: String?
        var inPaths = false
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            if inPaths, !line.isEmpty, !line.hasPrefix(" ") { break }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if let path = currentPath, line.hasPrefix("    "), !line.hasPrefix("     ") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "post", "put", "delete", "patch"].contains(String(method)) {
                    operations.insert("\(method.uppercased()) \(path)")
                }
            }
        }
        return operations
    }

    @Test func everyRegisteredRouteIsInTheOpenAPIDocument() async throws {
        var configuration = ServerConfiguration(bundleId: "com.example.storesync", environment: .sandbox)
        configuration.adminAPIKey = "an-admin-key-long-enough"
        let pool = ConnectionPool(
            configuration: PostgresConfiguration(unixSocketDirectory: "/nonexistent", user: "nobody", database: "none"),
            logger: Logger(label: "test"))
        let dependencies = try AppDependencies(
            configuration: configuration, pool: pool, feed: nil, logger: Logger(label: "test"), now: Date.init)
        let router = buildRouter(dependencies: dependencies, configuration: configuration, metrics: PrometheusCollectorRegistry())
        let registered = Set(router.routes.map { "\($0.method) \($0.path)" })
        let documented = Self.documentedOperations(String(decoding: OpenAPIDocument.data, as: UTF8.self))

        #expect(registered.count >= 17)
        #expect(registered.subtracting(documented).isEmpty, "undocumented: \(registered.subtracting(documented).sorted())")
        #expect(documented.subtracting(registered).isEmpty, "documented but not served: \(documented.subtracting(registered).sorted())")
        await pool.shutdown()
    }

    /// Apple's notifications are answered with one of these words; the document must list each.
    @Test func everyNotificationOutcomeIsInTheDocument() {
        let yaml = String(decoding: OpenAPIDocument.data, as: UTF8.self)
        let line = yaml.split(separator: "\n").first { $0.contains("status: {type: string, enum: [processed") }
        let documented = line.map { text in
            Set(text.split(separator: "[").last!.split(separator: "]").first!.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            })
        }
        #expect(documented == Set(NotificationService.Outcome.allCases.map(\.rawValue)))
    }

    @Test func theDocumentIsServed() async throws {
        try await withServer { server in
            let response = try await server.send("GET", "/openapi.yaml")
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self).hasPrefix("openapi: 3.1.0"))
        }
    }
}
