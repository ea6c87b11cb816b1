/// Opens once; everyone waiting then proceeds.
public actor AsyncLatch {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Creates a closed latch.
    public init() {}

    /// Returns once the latch is open.
    public func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Opens the latch for good, releasing every waiter.
    public func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
