import StoreSyncAPI

extension Problem {
    /// Whether the StoreSync server wrote this problem: its type is in StoreSync's namespace,
    /// including types added after this client was built. A captive portal's, proxy's or
    /// firewall's 4xx is not: HTML or an empty body (reported as an `about:blank` problem) or
    /// someone else's problem JSON.
    var isFromStoreSync: Bool { type.hasPrefix(ProblemType.uriPrefix) }
}
