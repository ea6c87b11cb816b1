import Foundation
import StoreSyncClient

// What an app does at launch, against a server that is not there: the client starts, the
// outbox flush finds nobody signed in, the catalog has no cached copy, and nothing is granted.
let client = StoreSyncClient(
    configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!, serverPublicKey: ""),
    store: InMemoryStore(), sessionStore: InMemoryStore())
let launch = await client.start(connectivity: nil)
let catalog = try? await client.catalog()
let premium = await client.isEntitled(to: "premium")
await client.stop()
print("flushed \(launch.uploaded), catalog \(catalog == nil ? "unavailable" : "cached"), premium \(premium)")
