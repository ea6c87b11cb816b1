import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting

/// Devices that keep signing up, buying and looking up entitlements against a server until
/// told to stop, reporting every answer to an ``OutageLedger``.
struct OutageLoad {
    let server: TestServer
    let ledger: OutageLedger
    /// How long a request may take before it counts as a hang: a liveness bound, not a
    /// performance assertion. On a machine busy with the whole suite a healthy sign-up
    /// (bcrypt) can take seconds; how fast the 503s come is reported, not asserted.
    static let requestTimeout: Duration = .seconds(60)

    /// One device: signs up (again until it works), then mostly buys and looks up, with a
    /// new account every few steps so sign-ups run throughout the outage too.
    func runDevice(_ device: Int) async {
        var session: SessionResponse?
        var step = 0
        while !Task.isCancelled, await !ledger.isFinished {
            step += 1
            if let current = session, !step.isMultiple(of: 7) {
                if step.isMultiple(of: 2) {
                    await buy(session: current, device: device)
                } else {
                    await lookUp(session: current, device: device)
                }
            } else {
                session = await signUp(device: device) ?? session
            }
            // Answers during the outage are instant: pacing keeps the loop from starving the server.
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    private func signUp(device: Int) async -> SessionResponse? {
        let credentials = Credentials(
            email: "outage-\(device)-\(UUID().uuidString.prefix(8))@example.com", password: TestServer.password,
            deviceName: "device \(device)")
        let response = await send("sign-up") {
            try await server.send("POST", "/v1/accounts", json: credentials, timeout: Self.requestTimeout)
        }
        guard let response, let session = try? response.decode(SessionResponse.self)
        else { return nil }
        await ledger.recordAccount(session)
        return session
    }

    private func buy(session: SessionResponse, device: Int) async {
        let purchase = server.signer.signedPurchase(of: TestCatalog.lifetime, at: server.clock.now())
        let body = UploadTransactionRequest(signedTransaction: purchase.signedTransaction!)
        let response = await send("upload") {
            try await server.send("POST", "/v1/transactions", token: session.token, json: body, timeout: Self.requestTimeout)
        }
        guard let response, let sync = try? response.decode(SyncResponse.self)
        else { return }
        if sync.verdicts.contains(where: { $0.transactionId == purchase.transactionId && $0.verdict == .accepted }) {
            await ledger.recordAccepted(purchase.transactionId, account: session.accountId)
        }
    }

    private func lookUp(session: SessionResponse, device: Int) async {
        _ = await send("lookup") {
            try await server.send("GET", "/v1/entitlements", token: session.token, timeout: Self.requestTimeout)
        }
    }

    /// Sends one request and has the ledger judge the answer; returns it only when it was 2xx.
    private func send(_ what: String, _ request: () async throws -> TestResponse) async -> TestResponse? {
        let started = await ledger.phase
        let clock = ContinuousClock()
        let begin = clock.now
        let outcome: Result<TestResponse, any Error>
        do {
            outcome = .success(try await request())
        } catch {
            outcome = .failure(error)
        }
        let seconds = (clock.now - begin) / .seconds(1)
        let ended = await ledger.phase
        let answer = outcome.map { (status: $0.status, contentType: $0.header("Content-Type"), problem: $0.problem) }
        let succeeded = await ledger.check(answer, started: started, ended: ended, seconds: seconds, what: what)
        return succeeded ? try? outcome.get() : nil
    }
}
