package import StoreSyncAPI
import StoreSyncCore

extension RestoreRequest {
    /// Reads a restore body the way ``StoreSyncJSON/makeDecoder()`` would, for bodies in the
    /// plain form StoreSync's clients write; `nil` for anything else (an unknown or repeated
    /// key, an escape in a string, a value of another type, malformed JSON), which the caller
    /// then decodes with `JSONDecoder` for its answer or its error naming the field.
    ///
    /// A restore carries thousands of entries, and `JSONDecoder` builds a keyed container for
    /// each. Whatever this accepts, `JSONDecoder` decodes to the same value (a property test
    /// holds it to that on valid and on mangled bodies).
    ///
    /// - Parameter body: The request body.
    /// - Returns: The request, or `nil` to fall back.
    package static func fastDecoded(from body: UnsafeRawBufferPointer) -> RestoreRequest? {
        var scanner = JSONFastScanner(body.assumingMemoryBound(to: UInt8.self))
        var entries: [RestoreEntry]?
        var legacyFlags: [String: Bool]?
        var receipt: String?
        var userInitiated: Bool?
        var dryRun: Bool?
        var seen = 0
        let read = scanner.object { scanner, name in
            guard let (key, index) = CodingKeys.wire.key(named: name), seen & 1 << index == 0 else { return false }
            seen |= 1 << index
            switch key {
            case .entries:
                var read: [RestoreEntry] = []
                guard scanner.array({ scanner in
                    guard let entry = RestoreEntry.fastDecoded(&scanner) else { return false }
                    read.append(entry)
                    return true
                }) else { return false }
                entries = read
                return true
            case .legacyFlags:
                if scanner.consumeNull() { return true }
                var flags: [String: Bool] = [:]
                guard scanner.object({ scanner, product in
                    let product = String(decoding: product, as: UTF8.self)
                    guard flags[product] == nil, let flag = scanner.bool() else { return false }
                    flags[product] = flag
                    return true
                }) else { return false }
                legacyFlags = flags
                return true
            case .receipt:
                return scanner.optional(into: &receipt) { $0.string() }
            case .userInitiated:
                return scanner.optional(into: &userInitiated) { $0.bool() }
            case .dryRun:
                return scanner.optional(into: &dryRun) { $0.bool() }
            }
        }
        scanner.skipWhitespace()
        guard read, scanner.isAtEnd, let entries else { return nil }
        return RestoreRequest(
            entries: entries, legacyFlags: legacyFlags, receipt: receipt, userInitiated: userInitiated, dryRun: dryRun)
    }
}
