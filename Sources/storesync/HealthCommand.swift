import ArgumentParser
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Foundation
import StoreSyncServer

/// `storesync health`: exit 0 when the server on this host answers `GET /health/ready` with
/// 200 (PostgreSQL answers too), 1 otherwise — the container healthcheck, for images that have
/// no curl and no shell with `/dev/tcp`.
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Exit 0 when this host's server is ready (GET /health/ready answers 200), else 1.",
        discussion: """
            Reads HTTP_HOST and HTTP_PORT as serve does; a server listening on all addresses \
            (0.0.0.0, ::) is asked on loopback. Exit 2 for a setting that does not parse.
            """
    )

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Double = 3

    @OptionGroup var options: ConfigurationOptions

    func validate() throws {
        guard timeout > 0, timeout <= 300 else { throw ValidationError("--timeout must be more than 0 and at most 300 seconds") }
    }

    func run() async throws {
        let reader = try options.reader()
        let base = try await StartupFailure.reporting { try ServerConfiguration.probeURL(reader: reader) }
        let url = base.appendingPathComponent("health/ready")
        do {
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: url.absoluteString), timeout: .milliseconds(Int64(timeout * 1000)))
            _ = try await response.body.collect(upTo: 64 * 1024)
            guard response.status.code == 200 else {
                throw Unready(reason: "\(url.absoluteString) answered \(response.status.code)")
            }
            print("storesync: ready (\(url.absoluteString))")
        } catch let unready as Unready {
            StandardError.write("storesync: not ready: \(unready.reason)\n")
            throw ExitCode(1)
        } catch {
            StandardError.write("storesync: not ready: \(url.absoluteString): \(error)\n")
            throw ExitCode(1)
        }
    }

    private struct Unready: Error {
        let reason: String
    }
}
