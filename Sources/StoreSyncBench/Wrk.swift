import Foundation

/// wrk against the server, with a Lua script choosing a random account per request.
struct Wrk {
    /// What a request asks for.
    enum Target {
        /// `GET /health/live`: the HTTP ceiling of this server.
        case liveness
        /// `GET /v1/entitlements` with a random device's token among the first `accounts`.
        case deviceEntitlements(accounts: Int)
        /// `GET /v1/admin/accounts/{id}/entitlements` with a random id among the first `accounts`.
        case adminEntitlements(accounts: Int)
        /// `GET /v1/entitlements` with each of the first `accounts` devices' tokens in turn: a
        /// warm-up that reaches every account of the hot set (random picks leave a third of
        /// them untouched after as many requests as there are accounts).
        case everyDevice(accounts: Int)
    }

    let baseURL: URL
    let workspace: BenchWorkspace
    /// wrk's threads: one per core.
    static let threads = 2

    func run(_ target: Target, connections: Int, seconds: Int) async throws -> LoadResult {
        let scriptFile = workspace.file("lookup.lua")
        try Data(Self.luaScript.utf8).write(to: scriptFile)
        let arguments: [String]
        let path: String
        switch target {
        case .liveness:
            (path, arguments) = ("/health/live", ["plain"])
        case .deviceEntitlements(let accounts):
            (path, arguments) = ("/v1/entitlements", ["device", workspace.tokensFile.path, String(accounts)])
        case .everyDevice(let accounts):
            (path, arguments) = ("/v1/entitlements", ["sweep", workspace.tokensFile.path, String(accounts)])
        case .adminEntitlements(let accounts):
            (path, arguments) = (
                "/v1/admin/accounts", ["admin", workspace.accountIdsFile.path, String(accounts), workspace.adminKey]
            )
        }
        let output = try await Shell.output(
            "wrk",
            ["--threads=\(Self.threads)", "--connections=\(connections)", "--duration=\(seconds)s", "--timeout=5s",
             "--script=\(scriptFile.path)", baseURL.absoluteString + path, "--"] + arguments)
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("STORESYNC-BENCH ") }) else {
            throw BenchError("wrk printed no result line:\n\(output)")
        }
        let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard fields.count == 5 else { throw BenchError("wrk's result line is malformed: \(line)") }
        let (requests, durationMicros, p50, p99, errors) = (fields[0], fields[1], fields[2], fields[3], fields[4])
        return LoadResult(
            requestsPerSecond: requests / (durationMicros / 1_000_000), p50Milliseconds: p50 / 1000,
            p99Milliseconds: p99 / 1000, errors: Int(errors))
    }

    /// Per thread: load the ids or tokens once, then pick one at random per request (or, to
    /// sweep, take the thread's share of them in order). `done` prints one machine-readable
    /// line: requests, duration µs, p50 µs, p99 µs, errors.
    static let luaScript = """
        local mode, items, admin_key, next_item = "plain", {}, nil, 0
        local threads_set_up = 0

        function setup(thread)
            thread:set("thread_number", threads_set_up)
            threads_set_up = threads_set_up + 1
        end

        function init(args)
            mode = args[1] or "plain"
            if mode ~= "plain" then
                local limit = tonumber(args[3])
                for line in io.lines(args[2]) do
                    items[#items + 1] = line
                    if #items >= limit then break end
                end
                admin_key = args[4]
            end
            math.randomseed(os.time() + tonumber(tostring(items):match("0x(%x+)") or "0", 16))
            next_item = thread_number or 0
        end

        function request()
            if mode == "device" then
                local token = items[math.random(#items)]
                return wrk.format("GET", nil, { ["Authorization"] = "Bearer " .. token })
            elseif mode == "sweep" then
                -- Thread n takes tokens n, n + threads, … round and round.
                local token = items[next_item % #items + 1]
                next_item = next_item + \(threads)
                return wrk.format("GET", nil, { ["Authorization"] = "Bearer " .. token })
            elseif mode == "admin" then
                local id = items[math.random(#items)]
                return wrk.format("GET", wrk.path .. "/" .. id .. "/entitlements",
                    { ["Authorization"] = "Bearer " .. admin_key })
            end
            return wrk.format("GET", nil)
        end

        function done(summary, latency, requests)
            local errors = summary.errors.status + summary.errors.connect + summary.errors.read
                + summary.errors.write + summary.errors.timeout
            io.write(string.format("STORESYNC-BENCH %d %d %d %d %d\\n", summary.requests, summary.duration,
                latency:percentile(50), latency:percentile(99), errors))
        end
        """
}
