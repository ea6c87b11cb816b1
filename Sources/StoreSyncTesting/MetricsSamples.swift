/// The samples of the server's `/metrics` page (Prometheus text format), by series.
public struct MetricsSamples: Sendable {
    /// The page as served.
    public let text: String

    /// Reads a `/metrics` body.
    public init(_ body: some Sequence<UInt8>) {
        text = String(decoding: Array(body), as: UTF8.self)
    }

    /// The value of a series, named as the page writes it (`hb_requests{http_route="/x",…}`):
    /// 0 when the page has no such line (a counter not made yet counts nothing), NaN when the
    /// line's value does not read as a number.
    public func value(_ series: String) -> Double {
        let prefix = series + " "
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return 0 }
        return Double(line.dropFirst(prefix.count)) ?? .nan
    }
}
