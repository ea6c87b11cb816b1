import Foundation
import StoreSyncTesting

/// `storesync-demo --server <path to storesync>`: two devices, one account, purchases through
/// the StoreKit glue (one made offline), a restore on an empty device, a refund arriving as a
/// Server Notification and a StoreKit 1 app's receipt restore, printed as a transcript.
/// Everything it starts and writes lives in one temporary directory that it removes at the end.
@main
struct DemoCommand {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let index = arguments.firstIndex(of: "--server"), index + 1 < arguments.count else {
            FileHandle.standardError.write(Data("usage: storesync-demo --server <path to the storesync executable>\n".utf8))
            exit(64)
        }
        let executable = URL(fileURLWithPath: arguments[index + 1])
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("storesync-demo-\(UUID().uuidString)")
        do {
            try await AppStoreReceiptStandIn.run(reply: DemoScenario.verifyReceipt) { receipts in
                try await play(executable: executable, workspace: workspace, receipts: receipts)
            }
        } catch {
            FileHandle.standardError.write(Data("storesync-demo: \(error)\n".utf8))
            try? FileManager.default.removeItem(at: workspace)
            exit(1)
        }
        try? FileManager.default.removeItem(at: workspace)
    }

    /// Starts the server, plays the scenario and stops the server, also when a step fails (then
    /// with the end of the server's log).
    private static func play(executable: URL, workspace: URL, receipts: AppStoreReceiptStandIn) async throws {
        let server = try await DemoServer.start(executable: executable, workspace: workspace, receipts: receipts)
        do {
            try await DemoScenario(server: server, receipts: receipts, workspace: workspace).run()
        } catch {
            FileHandle.standardError.write(Data("server log:\n\(server.logTail())\n".utf8))
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
