import AppStoreVerification
import AsyncHTTPClient
import Foundation
import Logging
import StoreSyncCore

/// The server's App Store Server API clients, one per environment it takes, each checking what
/// Apple returns with the verifier of its environment; none when the API settings are not set.
struct AppStoreAPIClients: Sendable {
    /// In the order to ask when a purchase's environment is unknown: production first, as
    /// Apple recommends.
    let clients: [AppStoreServerAPIClient]

    /// Makes a client per configuration.
    ///
    /// - Parameters:
    ///   - configurations: One per environment (``ServerConfiguration/appStoreAPIConfigurations()``).
    ///   - verifiers: The verifier of each environment.
    ///   - logger: Where skipped items are logged.
    ///   - now: The server's clock, which dates tokens.
    init(
        configurations: [AppStoreServerAPIConfiguration], verifiers: [AppStoreEnvironment: SignedDataVerifier],
        logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        clients = configurations.compactMap { configuration in
            verifiers[configuration.environment].map { verifier in
                AppStoreServerAPIClient(
                    configuration: configuration, verifier: verifier, httpClient: .shared, logger: logger, now: now)
            }
        }
    }

    /// The clients, or ``AppStoreAPIFailure/notConfigured(missing:)`` naming the settings to set.
    func configured() throws(AppStoreAPIFailure) -> [AppStoreServerAPIClient] {
        guard !clients.isEmpty else { throw .notConfigured(missing: AppStoreAPIKeySettings.settings) }
        return clients
    }

    /// The client for a purchase's environment, or the first one (the server's own environment)
    /// when the server takes no data of that environment.
    ///
    /// - Parameter environment: The environment the purchase was made in.
    func client(for environment: AppStoreEnvironment) throws(AppStoreAPIFailure) -> AppStoreServerAPIClient {
        let clients = try configured()
        return clients.first { $0.configuration.environment == environment } ?? clients[0]
    }

    /// Asks each environment in turn until one knows the subject: production, then sandbox on
    /// "not found", as Apple recommends for an id of unknown environment.
    ///
    /// - Parameter ask: One call; `nil` when that environment does not know the subject.
    /// - Returns: The first answer and the environment that gave it, or `nil` when none knows it.
    /// - Throws: ``AppStoreAPIFailure`` for anything but "not found".
    func firstKnowing<Answer>(
        _ ask: (AppStoreServerAPIClient) async throws(AppStoreServerAPIError) -> Answer?
    ) async throws(AppStoreAPIFailure) -> (answer: Answer, environment: AppStoreEnvironment)? {
        for client in try configured() {
            do {
                if let answer = try await ask(client) { return (answer, client.configuration.environment) }
            } catch .notFound {
                continue
            } catch {
                throw .apple(error)
            }
        }
        return nil
    }
}
