import Foundation

/// `storesync-demo --server <path to storesync>`: two devices, one account, a purchase made
/// offline, a restore on an empty device and a refund arriving as a Server Notification,
/// printed as a transcript. Everything it starts and writes lives in one temporary directory
/// that it removes at the end.
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
        var server: DemoServer?
        do {
            let started = try await DemoServer.start(executable: executable, workspace: workspace)
            server = started
            try await DemoScenario(server: started, workspace: workspace).run()
        } catch {
            FileHandle.standardError.write(Data("storesync-demo: \(error)\n".utf8))
            if let log = server?.logTail() { FileHandle.standardError.write(Data("server log:\n\(log)\n".utf8)) }
            await server?.stop()
            try? FileManager.default.removeItem(at: workspace)
            exit(1)
        }
        await server?.stop()
        try? FileManager.default.removeItem(at: workspace)
    }
}
