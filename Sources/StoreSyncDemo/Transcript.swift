import Foundation
import StoreSyncAPI
import StoreSyncCore

/// Prints the demo as a readable transcript: a heading per actor, one aligned line per call.
enum Transcript {
    static func title(_ text: String) {
        print(text)
        print(String(repeating: "=", count: text.count))
    }

    static func section(_ text: String) {
        print("\n\(text)")
    }

    static func step(_ call: String, _ result: String) {
        let padded = call.count < 44 ? call + String(repeating: " ", count: 44 - call.count) : call + " "
        print("  \(padded)→ \(result)")
    }

    static func note(_ text: String) {
        print("  \(text)")
    }

    static func date(_ date: Date?) -> String {
        guard let date else { return "never" }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate, .withSpaceBetweenDateAndTime]
        // Minutes are enough for people; the seconds only make lines longer.
        return String(formatter.string(from: date).prefix(16)) + " UTC"
    }

    static func short(_ id: UUID) -> String { String(id.uuidString.lowercased().prefix(8)) + "…" }

    static func entitlements(_ entitlements: [Entitlement]) -> String {
        guard !entitlements.isEmpty else { return "none" }
        return entitlements.map { entitlement in
            let until = entitlement.expiresAt.map { "until \(date($0))" } ?? "no end"
            return "\(entitlement.entitlementId) via \(product(entitlement.productId)), \(until)"
        }.joined(separator: "; ")
    }

    static func verdicts(_ verdicts: [Verdict]) -> String {
        guard !verdicts.isEmpty else { return "no verdicts" }
        return verdicts.map { "\(product($0.productId ?? "?")): \($0.verdict.rawValue)" }.joined(separator: ", ")
    }

    /// `lifetime` for `com.example.storesync.lifetime`: the transcript is about people, not bundles.
    static func product(_ productId: String) -> String {
        productId.split(separator: ".").last.map(String.init) ?? productId
    }
}
