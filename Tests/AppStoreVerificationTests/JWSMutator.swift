import Foundation
import StoreSyncTesting

/// Makes one random mutation of a valid compact JWS: a bit flip, a byte change, an
/// insertion, a deletion or a truncation, in the header, the payload, the signature, one
/// `x5c` certificate, or the raw text.
struct JWSMutator {
    enum Target: CaseIterable { case header, payload, signature, certificate, text }

    let original: String
    private let parts: [Data]

    init(_ jws: String) {
        original = jws
        parts = jws.split(separator: ".").map { part in
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return Data(base64Encoded: base64) ?? Data()
        }
    }

    func mutate(using generator: inout SeededGenerator) -> (String, Target) {
        let target = Target.allCases.randomElement(using: &generator) ?? .text
        switch target {
        case .text:
            return (String(decoding: Self.mutate(Data(original.utf8), using: &generator), as: UTF8.self), target)
        case .certificate:
            return (mutateCertificate(using: &generator), target)
        case .header, .payload, .signature:
            var mutated = parts
            let index = target == .header ? 0 : target == .payload ? 1 : 2
            mutated[index] = Self.mutate(mutated[index], using: &generator)
            return (mutated.map(AppStoreTestSigner.base64URL).joined(separator: "."), target)
        }
    }

    private func mutateCertificate(using generator: inout SeededGenerator) -> String {
        guard var header = try? JSONSerialization.jsonObject(with: parts[0]) as? [String: Any],
            var x5c = header["x5c"] as? [String], !x5c.isEmpty
        else { return original }
        let index = Int.random(in: 0..<x5c.count, using: &generator)
        let der = Data(base64Encoded: x5c[index]) ?? Data()
        x5c[index] = Self.mutate(der, using: &generator).base64EncodedString()
        header["x5c"] = x5c
        let headerData = (try? JSONSerialization.data(withJSONObject: header, options: .sortedKeys)) ?? Data()
        return ([headerData] + parts[1...]).map(AppStoreTestSigner.base64URL).joined(separator: ".")
    }

    /// One random edit that always changes the bytes.
    static func mutate(_ data: Data, using generator: inout SeededGenerator) -> Data {
        var bytes = [UInt8](data)
        guard !bytes.isEmpty else { return Data([UInt8.random(in: 0...255, using: &generator)]) }
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
        case 1: bytes[position] ^= UInt8.random(in: 1...255, using: &generator)
        case 2: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
        case 3: bytes.remove(at: position)
        default: bytes.removeSubrange(position...)
        }
        return Data(bytes)
    }
}
