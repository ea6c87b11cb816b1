import AppStorePayloads
import Crypto
import Foundation
import StoreSyncCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A batch of signed texts (JWS) as the tables keep them (migration 0010), one element per row
/// in each array: the SHA-256 of the protected header's text (`jws_header_sha256`), the payload
/// and the signature decoded (`jws_payload`, `jws_signature`), and the distinct headers
/// themselves for `jws_headers`, written once however many rows share them.
///
/// Only a text of three parts whose payload and signature are canonical base64url is split, so
/// `header.base64url(payload).base64url(signature)` (`storesync_jws` in SQL) gives back exactly
/// the text; any other text is kept whole (``wholeTexts``), as is. The verifier accepts only
/// canonical parts, so every verified text splits.
struct SignedTextColumns {
    var headerDigests: [Data?] = []
    var payloads: [Data?] = []
    var signatures: [Data?] = []
    /// Each row's text when it is kept whole (not split).
    var wholeTexts: [String?] = []
    /// The digests of the batch's distinct headers, in ascending byte order (writers that
    /// insert the same new headers take their locks in one order).
    private(set) var distinctHeaderDigests: [Data] = []
    /// The texts of the headers in ``distinctHeaderDigests``, in the same order.
    private(set) var distinctHeaders: [String] = []

    /// Splits each text; `nil` stays `nil` in every column.
    init(_ texts: [String?]) {
        self.init(texts.map { $0.map { SignedText(whole: $0) } })
    }

    /// Splits each text, however it is held; `nil` stays `nil` in every column.
    init(_ texts: [SignedText?]) {
        headerDigests.reserveCapacity(texts.count)
        payloads.reserveCapacity(texts.count)
        signatures.reserveCapacity(texts.count)
        wholeTexts.reserveCapacity(texts.count)
        var headers = HeaderDigests()
        for text in texts {
            guard let text, let parts = text.withParts({ Self.parts(head: $0, rest: $1, headers: &headers) }) else {
                headerDigests.append(nil)
                payloads.append(nil)
                signatures.append(nil)
                wholeTexts.append(text?.string)
                continue
            }
            headerDigests.append(parts.headerDigest)
            payloads.append(parts.payload)
            signatures.append(parts.signature)
            wholeTexts.append(nil)
        }
        let sorted = headers.texts.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        distinctHeaderDigests = sorted.map(\.key)
        distinctHeaders = sorted.map { String(decoding: $0.value, as: UTF8.self) }
    }

    /// The parts of a text that splits canonically; `nil` for any other text. The text is
    /// `head` then `rest`: all of it and nothing, or its header with the dot after it and the
    /// rest (``StoreSyncCore/SignedText``).
    private static func parts(
        head: UnsafeBufferPointer<UInt8>, rest: UnsafeBufferPointer<UInt8>, headers: inout HeaderDigests
    ) -> (headerDigest: Data, payload: Data, signature: Data)? {
        let header: UnsafeBufferPointer<UInt8>
        let body: UnsafeBufferPointer<UInt8>
        if rest.isEmpty {
            guard let first = dot(in: head, from: 0) else { return nil }
            header = UnsafeBufferPointer(rebasing: head[..<first])
            body = UnsafeBufferPointer(rebasing: head[(first + 1)...])
        } else {
            guard head.last == UInt8(ascii: ".") else { return nil }
            header = UnsafeBufferPointer(rebasing: head.dropLast())
            body = rest
        }
        guard let second = dot(in: body, from: 0), dot(in: body, from: second + 1) == nil,
            let payload = Base64URL.decode(UnsafeBufferPointer(rebasing: body[..<second])),
            let signature = Base64URL.decode(UnsafeBufferPointer(rebasing: body[(second + 1)...]))
        else { return nil }
        return (headers.digest(of: header), Data(payload), Data(signature))
    }

    /// The index of the first `.` at or after `start`, found by `memchr` (the header alone is
    /// a few KB).
    private static func dot(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The headers of one batch, by digest. A batch's rows almost always share one header
    /// (~2–5 KB of text), which is compared with the few seen last rather than hashed again.
    private struct HeaderDigests {
        /// How many headers a header is compared with before it is hashed.
        static let compared = 8

        /// Every distinct header, by digest.
        var texts: [Data: [UInt8]] = [:]
        /// The first headers seen, with their digests.
        private var recent: [(text: [UInt8], digest: Data)] = []

        mutating func digest(of header: UnsafeBufferPointer<UInt8>) -> Data {
            for entry in recent where entry.text.count == header.count {
                let equal = entry.text.withUnsafeBufferPointer { seen in
                    header.isEmpty || memcmp(seen.baseAddress!, header.baseAddress!, header.count) == 0
                }
                if equal { return entry.digest }
            }
            let digest = Data(SHA256.hash(data: UnsafeRawBufferPointer(header)))
            if texts[digest] == nil {
                texts[digest] = Array(header)
                if recent.count < Self.compared { recent.append((Array(header), digest)) }
            }
            return digest
        }
    }
}
