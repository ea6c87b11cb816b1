/// A step of the demo that did not go as the story says: the demo stops with it.
struct DemoFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
