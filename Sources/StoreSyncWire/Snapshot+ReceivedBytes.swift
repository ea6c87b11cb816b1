package import Foundation
package import StoreSyncAPI

/// A snapshot's JSON as a device received it, split the way its signature was made.
///
/// The server writes a signed snapshot as `{"signature":"…",` followed by the signed bytes
/// without their opening brace (``Snapshot/body(signedBy:transactions:)``). So the signature
/// covers the object's text exactly as received with its `signature` member taken out:
/// `{"signature":"X",REST` is checked as `{REST`. A device that checks those bytes, rather than
/// bytes it writes again from what it decoded, also accepts members (and values) a newer server
/// adds that it does not know: they are signed like every other member, and never dropped
/// before the check.
///
/// Only the `signature` member and the whitespace around it are outside the signed text, so a
/// forger holding a signed snapshot can change nothing a decoder reads from it but the
/// signature itself.
package struct ReceivedSnapshotSignature: Sendable, Hashable {
    /// The base64 signature, as written.
    package let signature: String
    /// `{` and every byte after the comma that ends the `signature` member, up to and with the
    /// object's closing brace.
    package let signedBytes: Data

    /// Splits a snapshot object's JSON whose first member is a `signature` written as plain
    /// ASCII (base64 needs no escapes).
    ///
    /// - Parameter bytes: The object's JSON; whitespace around it is ignored.
    /// - Returns: The split, or `nil` when the text does not start that way (a snapshot encoded
    ///   by `JSONEncoder`, whose members come in another order), so the caller checks the
    ///   canonical bytes of what it decoded instead.
    package init?(_ bytes: Data) {
        let split: (String, Range<Int>)? = bytes.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            var scanner = JSONFastScanner(buffer)
            guard scanner.consume(UInt8(ascii: "{")), let key = scanner.string(), key == "signature",
                scanner.consume(UInt8(ascii: ":")), let signature = scanner.string(), scanner.consume(UInt8(ascii: ","))
            else { return nil }
            var end = buffer.count
            while end > scanner.offset, JSONFastScanner.isWhitespace(buffer[end - 1]) { end -= 1 }
            guard end > scanner.offset, buffer[end - 1] == UInt8(ascii: "}") else { return nil }
            return (signature, scanner.offset..<end)
        }
        guard let (signature, rest) = split else { return nil }
        var signed = Data(capacity: rest.count + 1)
        signed.append(UInt8(ascii: "{"))
        signed.append(bytes[bytes.startIndex + rest.lowerBound..<bytes.startIndex + rest.upperBound])
        self.signature = signature
        self.signedBytes = signed
    }
}

extension SyncResponse {
    /// Where the `snapshot` member's value lies in a sync answer's JSON, so the snapshot can be
    /// verified and kept as the bytes the server signed, not as a copy encoded again.
    ///
    /// Reads only text that `JSONDecoder` has already accepted. Declines (`nil`) what it cannot
    /// locate unambiguously: a body that is not an object, a key written with an escape, or
    /// `snapshot` named twice.
    ///
    /// - Parameter body: The answer's JSON.
    /// - Returns: The byte offsets of the snapshot object within `body`, from `{` to `}`.
    package static func snapshotRange(in body: Data) -> Range<Int>? {
        body.withUnsafeBytes { raw -> Range<Int>? in
            let buffer = raw.bindMemory(to: UInt8.self)
            var scanner = JSONFastScanner(buffer)
            var found: Range<Int>?
            guard scanner.consume(UInt8(ascii: "{")) else { return nil }
            if scanner.consume(UInt8(ascii: "}")) { return nil }
            repeat {
                scanner.skipWhitespace()
                let keyStart = scanner.offset
                guard scanner.skipString() else { return nil }
                let key = UnsafeBufferPointer(rebasing: buffer[keyStart + 1..<scanner.offset - 1])
                guard !key.contains(UInt8(ascii: "\\")), scanner.consume(UInt8(ascii: ":")) else { return nil }
                scanner.skipWhitespace()
                let valueStart = scanner.offset
                guard scanner.skipValue() else { return nil }
                if key.elementsEqual(CodingKeys.snapshot.stringValue.utf8) {
                    guard found == nil else { return nil }
                    found = valueStart..<scanner.offset
                }
            } while scanner.consume(UInt8(ascii: ","))
            guard scanner.consume(UInt8(ascii: "}")) else { return nil }
            scanner.skipWhitespace()
            guard scanner.isAtEnd, let found, buffer[found.lowerBound] == UInt8(ascii: "{") else { return nil }
            return found
        }
    }
}
