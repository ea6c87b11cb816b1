/// A snapshot of a pool's occupancy, for metrics and health checks.
public struct PoolStatistics: Sendable, Hashable {
    /// The most connections the pool opens.
    public var size: Int
    /// Connections created so far (each opens its socket on first use).
    public var connections: Int
    /// Connections lent out right now.
    public var inUse: Int
    /// Connections ready to be lent.
    public var idle: Int
    /// Callers queued for a connection.
    public var waiting: Int
    /// Callers failed since the pool was made because no connection became free in time.
    public var checkoutTimeouts = 0
}
