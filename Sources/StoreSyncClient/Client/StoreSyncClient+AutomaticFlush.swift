import Foundation

extension StoreSyncClient {
    /// Starts the outbox's automatic flushing and flushes it now: call it once at launch.
    ///
    /// From then on, waiting uploads go up without the app asking: whenever `connectivity`
    /// reports the network back (every upload is then tried at once), and on each entry's
    /// backoff schedule (``RetryPolicy``), which also covers servers that fail while the
    /// network is fine. Every successful call also uploads what is due. Flushes never overlap.
    /// Calling it again only flushes.
    ///
    /// - Parameter connectivity: What reports the network coming back: a path monitor on
    ///   Apple platforms by default; `nil` elsewhere, where the backoff schedule alone retries.
    /// - Returns: What the launch flush did.
    @discardableResult
    public func start(
        connectivity: (any ConnectivityMonitor)? = StoreSyncClient.systemConnectivityMonitor()
    ) async -> FlushOutcome {
        if !automaticFlushing {
            automaticFlushing = true
            if let connectivity {
                let restorations = connectivity.restorations()
                connectivityListener = Task { [weak self] in
                    for await _ in restorations {
                        guard let self else { return }
                        await self.flush()
                    }
                }
            }
        }
        return await flush()
    }

    /// Stops the automatic flushing ``start(connectivity:)`` began; uploads wait until the
    /// next call, ``flush()`` or start.
    public func stop() {
        automaticFlushing = false
        connectivityListener?.cancel()
        connectivityListener = nil
        retryTimer?.cancel()
        retryTimer = nil
    }

    /// The connectivity monitor ``start(connectivity:)`` uses by default.
    ///
    /// - Returns: `PathMonitor` where the Network framework exists, `nil` elsewhere.
    public static func systemConnectivityMonitor() -> (any ConnectivityMonitor)? {
        #if canImport(Network)
        PathMonitor()
        #else
        nil
        #endif
    }

    /// Sets the retry timer for the earliest moment something waiting becomes due (an outbox
    /// entry, or the offer of purchases made before sign-in), replacing any timer set before.
    /// Does nothing until ``start(connectivity:)``.
    func armRetryTimer() {
        guard automaticFlushing else { return }
        retryTimer?.cancel()
        retryTimer = nil
        guard let due = nextRetryDate() else { return }
        // Never sooner than a second: a store that cannot save an entry's new schedule leaves
        // it due, and the timer must not spin on it.
        let delay = max(1, due.timeIntervalSince(now()))
        let sleep = self.sleep
        retryTimer = Task { [weak self] in
            do {
                try await sleep(delay)
            } catch {
                return
            }
            await self?.retryTimerFired()
        }
    }

    private func retryTimerFired() async {
        // Replaced by a newer timer after the wait ended: that one is in charge.
        guard !Task.isCancelled else { return }
        // The flush may set the next timer; this one is spent and must not be cancelled by it.
        retryTimer = nil
        await flushDueUploads()
    }

    /// When the next upload, or the next offer of anonymous purchases after a failed one, is due.
    private func nextRetryDate() -> Date? {
        guard let ticket = currentTicket() else { return nil }
        // Entries being uploaded count too: this runs while a failed upload is rescheduled.
        return (outbox(in: ticket.partition).map(\.nextAttemptAt) + [claimRetryAt].compactMap { $0 }).min()
    }
}
