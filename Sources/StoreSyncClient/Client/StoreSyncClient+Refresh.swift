import Foundation
import StoreSyncAPI

extension StoreSyncClient {
    /// Fetches the account's current snapshot, so refunds, renewals and purchases made on
    /// other devices show up, and `validUntil` moves forward.
    ///
    /// While the cached snapshot is young it asks with `If-None-Match` (a cheap 304); once
    /// it has aged past ``Configuration/conditionalRefreshWindow`` it asks unconditionally,
    /// because a 304 would leave the device with a snapshot about to go stale.
    ///
    /// - Returns: ``RefreshOutcome/updated(_:)`` with the new verified snapshot, or
    ///   ``RefreshOutcome/notModified``.
    /// - Throws: ``StoreSyncClientError/notSignedIn``, ``StoreSyncClientError/untrustedSnapshot``,
    ///   ``StoreSyncClientError/sessionChanged``, transport and server errors.
    public func refresh() async throws -> RefreshOutcome {
        let ticket = try requireTicket()
        await flushDueUploads()
        try ensureCurrent(ticket)
        return try await fetchSnapshot(ticket: ticket)
    }

    func fetchSnapshot(ticket: SessionTicket) async throws(StoreSyncClientError) -> RefreshOutcome {
        let partition = ticket.partition
        var ifNoneMatch: String?
        if let cached = verifiedSnapshot(in: partition), isComfortablyValid(cached, in: partition),
            let etag = read(StoredETag.self, .etag, in: partition), etag.version == cached.version
        {
            ifNoneMatch = etag.etag
        }
        let response = try await refusingSession(of: ticket) { () async throws(StoreSyncClientError) in
            try await api.entitlements(token: ticket.token, ifNoneMatch: ifNoneMatch)
        }
        try ensureCurrent(ticket)
        if response.status == 304 {
            guard ifNoneMatch != nil else { throw .malformedResponse("304 Not Modified to a request without If-None-Match") }
            return .notModified
        }
        let snapshot: Snapshot
        do {
            snapshot = try verifier.verify(bytes: response.body, accountId: ticket.session.accountId)
        } catch .malformed(let detail) {
            throw .malformedResponse("snapshot: \(detail)")
        } catch {
            throw .untrustedSnapshot
        }
        try merge(snapshot.transactions, into: partition)
        try keep(snapshot, bytes: response.body, etag: response.header("ETag"), in: partition)
        return .updated(verifiedSnapshot(in: partition) ?? snapshot)
    }
}
