import StoreSyncTesting

extension TestResponse {
    /// The server's own time for the request, from its `Server-Timing: app;dur=<ms>` header.
    ///
    /// - Parameter what: What the answer was to, for the error.
    /// - Throws: ``BenchError`` when the header is missing or holds no number.
    func serverMilliseconds(of what: String) throws -> Double {
        guard let timing = header("Server-Timing"), let milliseconds = Double(timing.split(separator: "=").last ?? "") else {
            throw BenchError("the \(what) answer has no Server-Timing header")
        }
        return milliseconds
    }
}
