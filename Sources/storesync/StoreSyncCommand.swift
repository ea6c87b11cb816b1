@main
struct StoreSyncCommand {
    static func main() {
        print("storesync: not wired yet")
    }
}
