@main
struct DemoCommand {
    static func main() {
        print("storesync-demo: not wired yet")
    }
}
