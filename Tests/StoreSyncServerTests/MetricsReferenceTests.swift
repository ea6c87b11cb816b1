import Foundation
import Testing

/// The metrics reference (`StoreSyncServer.docc/Metrics.md`) names every metric the server
/// records, so an operator reading it sees all there is, and a new metric cannot ship unlisted.
@Suite struct MetricsReferenceTests {
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/StoreSyncServer")

    /// Every `storesync_…` name given to a metric: `label: "…"`, or a `…Label = "…"` constant.
    private static func recordedNames() throws -> Set<String> {
        let pattern = try NSRegularExpression(pattern: #"(?:label: |Label = )"(storesync_[a-z_]+)""#)
        var names: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { names.insert(String(text[range])) }
            }
        }
        return names
    }

    @Test func everyRecordedMetricIsInTheReference() throws {
        let reference = try String(
            contentsOf: Self.sources.appendingPathComponent("StoreSyncServer.docc/Metrics.md"), encoding: .utf8)
        let names = try Self.recordedNames()
        #expect(names.count >= 25, "the scan found the metrics: \(names.sorted())")
        // A row may shorten a family to its suffixes (`storesync_db_pool_size`, `_in_use`, …).
        let missing = names.filter { name in
            !reference.contains("`\(name)`") && !reference.contains("`_\(name.split(separator: "_").suffix(2).joined(separator: "_"))`")
                && !reference.contains("`_\(name.split(separator: "_").suffix(1).joined())`")
        }
        #expect(missing.isEmpty, "not in Metrics.md: \(missing.sorted())")
    }
}
