import Foundation
import PropertyBased
import StoreSyncTesting

/// A signed text as a store may be handed one: a JWS signed by the test PKI, as it is or
/// spelled in a way that is not canonical base64url (which must be kept whole), for the
/// storage's round-trip tests.
struct SignedTextSample: Sendable, CustomStringConvertible {
    /// What is done to the signed text.
    enum Spelling: Int, CaseIterable, Sendable {
        case signed, signedAgain, emptyPayload
        case paddedPayload, plusInSignature, slashInPayload, nonZeroTrailingBits, newlineInPayload
        case fourParts, twoParts, notAJWS, nonASCIIHeader
    }

    let payload: [UInt8]
    let spelling: Spelling
    /// Picks one of a few headers, so batches hold several distinct ones.
    let headerVariant: Int

    var description: String { "\(spelling) of \(payload.count) payload bytes, header \(headerVariant)" }

    /// Samples of every spelling, payloads of any bytes (empty, and past the 2 KB at which
    /// PostgreSQL would move a value out of line).
    static let generator = zip(
        Gen.uint8().array(of: 0...2_400), Gen.element(of: Spelling.allCases), Gen.int(in: 0...2)
    ).map { payload, spelling, header in
        SignedTextSample(payload: payload, spelling: spelling ?? .signed, headerVariant: header)
    }

    /// Whether the text is three canonical base64url parts (the form stored split).
    var splits: Bool {
        switch spelling {
        case .signed, .signedAgain, .emptyPayload, .nonASCIIHeader: true
        // One payload byte in three leaves no spare bits to set.
        case .nonZeroTrailingBits: payload.count % 3 == 0
        case .paddedPayload, .plusInSignature, .slashInPayload, .newlineInPayload, .fourParts, .twoParts, .notAJWS: false
        }
    }

    /// The text.
    func text(signer: AppStoreTestSigner) -> String {
        let header = AppStoreTestHeader(extra: headerVariant == 0 ? [:] : ["kid": "key-\(headerVariant)"])
        let signed = signer.sign(payload: Data(spelling == .emptyPayload ? [] : payload), header: header)
        var parts = signed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        switch spelling {
        case .signed, .signedAgain, .emptyPayload:
            return signed
        case .paddedPayload:
            parts[1] += parts[1].count % 4 == 0 ? "====" : String(repeating: "=", count: 4 - parts[1].count % 4)
        case .plusInSignature:
            parts[2] = "+" + parts[2].dropFirst()
        case .slashInPayload:
            parts[1] = "/" + parts[1].dropFirst()
        case .nonZeroTrailingBits:
            guard let last = parts[1].last else { return signed }
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            let value = alphabet.firstIndex(of: last) ?? 0
            parts[1] = parts[1].dropLast() + String(alphabet[(value + 1) % 64])
        case .newlineInPayload:
            parts[1] = parts[1].prefix(3) + "\n" + parts[1].dropFirst(3)
        case .fourParts:
            parts.append("c2lnbmF0dXJl")
        case .twoParts:
            parts.removeLast()
        case .notAJWS:
            return "jws-\(payload.count)-\(headerVariant) ä"
        case .nonASCIIHeader:
            parts[0] = "é" + parts[0]
        }
        return parts.joined(separator: ".")
    }
}
