import Synchronization

/// Set once from one task, read from another: how a test that holds a lock sees that the
/// request it started finished instead of waiting.
final class DoneFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    /// 1 once set, else 0: how many of the requests a test counts have finished.
    var count: Int { isSet ? 1 : 0 }
    func set() { value.withLock { $0 = true } }
}
