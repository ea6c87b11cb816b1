/// A page of a paged App Store Server API endpoint that later pages can be appended to.
protocol AppStorePagedResult: Sendable {
    /// The token that asks for the next page (`revision`, `paginationToken`).
    var continuation: String? { get }
    /// Whether Apple has more pages after this one.
    var hasMore: Bool { get }
    /// Appends the next page's items and takes its token and `hasMore`.
    mutating func append(contentsOf next: Self)
}

extension AppStoreServerAPIClient {
    /// Fetches pages from `token` on while Apple says there are more, up to
    /// ``AppStoreServerAPIConfiguration/maximumPages``, and returns them as one result.
    func collectPages<Page: AppStorePagedResult>(
        from token: String?, _ fetch: (String?) async throws(AppStoreServerAPIError) -> Page
    ) async throws(AppStoreServerAPIError) -> Page {
        var collected = try await fetch(token)
        var pages = 1
        while collected.hasMore, pages < configuration.maximumPages {
            collected.append(contentsOf: try await fetch(collected.continuation))
            pages += 1
        }
        return collected
    }
}
